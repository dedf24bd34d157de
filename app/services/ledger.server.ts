import type { AppEnv } from "~/load-context";

/** The user's UserLedger: the only way to change that user's credits. */
export function ledgerFor(env: AppEnv, userId: string) {
  return env.USER_LEDGER.get(env.USER_LEDGER.idFromName(userId));
}
