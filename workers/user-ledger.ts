import { DurableObject } from "cloudflare:workers";
import type { AppEnv } from "../app/load-context";

/** One per user: serialises that user's credit changes and holds their realtime sockets. */
export class UserLedger extends DurableObject<AppEnv> {
  async ping(): Promise<string> {
    return "pong";
  }
}
