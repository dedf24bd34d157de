import type { Db } from "../app/db/client.server";
import { writePresence } from "../app/db/user-access.server";
import { touchLastSeen } from "../app/db/users.server";

/**
 * Presence (online/offline, last seen) of a user, from their live sockets. It shares `users.status` with the ban,
 * so the write is conditional in one statement (user-access.server.ts): presence never overwrites a ban. Returns
 * whether the row changed (admin pages then hear of it).
 */
export async function setPresence(db: Db, userId: string, online: boolean): Promise<boolean> {
  return Boolean(await writePresence(db, userId, online));
}

/** The heartbeat: last seen moves on, at most once a minute per object (a ping is not worth a write each). */
export class LastSeen {
  private writtenAt = 0;
  constructor(private readonly minIntervalMs = 60_000) {}

  async touch(db: Db, userId: string, now = Date.now()): Promise<void> {
    if (now - this.writtenAt < this.minIntervalMs) return;
    this.writtenAt = now;
    await touchLastSeen(db, userId);
  }
}
