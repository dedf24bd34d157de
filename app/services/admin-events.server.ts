import type { AppEnv } from "~/load-context";
import { ADMIN_FEED_NAME } from "./realtime-control.server";

export type AdminFeedTopic = "users" | "clips" | "audit";

/**
 * Tells open admin pages that a topic changed (they refetch). Fire-and-forget: a lost hint only delays an admin
 * refresh, never loses data. Called once, from the one place that made the change.
 */
export async function publishAdminEvent(env: AppEnv, topic: AdminFeedTopic): Promise<void> {
  try {
    await env.ADMIN_FEED.get(env.ADMIN_FEED.idFromName(ADMIN_FEED_NAME)).publish(topic);
  } catch (error) {
    console.warn(JSON.stringify({ level: "warn", msg: "admin feed publish failed", error: String(error) }));
  }
}
