import { tokenAccepted, tokenStanding, type TokenStanding } from "../app/db/api-tokens.server";
import type { Db } from "../app/db/client.server";

/** A remembered token check is re-read from D1 after this long, whatever else happens (decision 010). */
export const TOKEN_RECHECK_MS = 60_000;
const MAX_TOKENS = 64;

/**
 * The extension-token checks a UserLedger remembers, by token hash, so an API request costs no D1 read. Every
 * revocation path calls `forget`; a D1 read that started before a `forget` is not remembered.
 */
export class TokenChecks {
  private tokens = new Map<string, { standing: TokenStanding | null; checkedAt: number }>();
  private epoch = 0;

  constructor(private readonly db: () => Db) {}

  async accepted(userId: string, tokenHash: string, now: number): Promise<boolean> {
    let entry = this.tokens.get(tokenHash);
    while (!entry || now - entry.checkedAt > TOKEN_RECHECK_MS) {
      const epoch = this.epoch;
      const standing = await tokenStanding(this.db(), tokenHash);
      if (epoch !== this.epoch) continue; // revoked meanwhile: read again
      if (this.tokens.size >= MAX_TOKENS) this.tokens.clear();
      entry = { standing, checkedAt: now };
      this.tokens.set(tokenHash, entry);
    }
    return tokenAccepted(entry.standing, userId, now);
  }

  forget(): void {
    this.tokens.clear();
    this.epoch += 1;
  }
}
