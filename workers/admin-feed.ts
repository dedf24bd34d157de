import { DurableObject } from "cloudflare:workers";
import type { AppEnv } from "../app/load-context";

/** Fans change events (users, clips) out to admin dashboards, in batches. */
export class AdminFeed extends DurableObject<AppEnv> {
  async ping(): Promise<string> {
    return "pong";
  }
}
