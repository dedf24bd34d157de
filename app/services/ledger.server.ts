import { BUSY_MESSAGE, fail, type LedgerFailure } from "~/db/ledger.server";
import type { AppEnv } from "~/load-context";

/**
 * The user's UserLedger: the only way to change that user's credits. Its operations: charge, reserve, capture,
 * release, adjust (admin edit to an exact balance, with actor and reason, idempotent on `key`), refund (a clip's
 * cost back, once per clip, optionally deleting the clip), pluginConnect, starterReset, changePlan, renew, sweep.
 */
export function ledgerFor(env: AppEnv, userId: string) {
  return env.USER_LEDGER.get(env.USER_LEDGER.idFromName(userId));
}

/**
 * A ledger call that could not reach its object (restarting after a deploy, overloaded) is "busy": nothing was
 * decided for this attempt that a retry with the same idempotency key would not replay. Use around every call:
 * `await ledgerCall(() => ledgerFor(env, id).charge({...}))`.
 */
export async function ledgerCall<P extends PromiseLike<unknown>>(call: () => P): Promise<Awaited<P> | LedgerFailure> {
  try {
    return await call();
  } catch (error) {
    console.warn(JSON.stringify({ level: "warn", msg: "ledger unreachable", error: String(error) }));
    return fail(503, "busy", BUSY_MESSAGE);
  }
}

/** Seconds a client waits before retrying a "busy" answer. */
export const BUSY_RETRY_AFTER_S = 1;
