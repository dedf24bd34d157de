import {
  BUSY_MESSAGE,
  fail,
  LEDGER_OPS,
  type LedgerFailure,
  type LedgerInput,
  type LedgerOpName,
  type LedgerOutcome,
  type LedgerResult,
  type PayerView,
  type Standing,
} from "~/domain/ledger";
import type { SettingsData } from "~/domain/realtime";
import type { AppEnv } from "~/load-context";

/** Seconds a client waits before retrying a "busy" answer. */
export const BUSY_RETRY_AFTER_S = 1;

/** The Retry-After header a "busy" answer carries, on pages and API alike. */
export const busyHeaders = (result: { ok: boolean; status?: number }): HeadersInit =>
  !result.ok && result.status === 503 ? { "Retry-After": String(BUSY_RETRY_AFTER_S) } : {};

/**
 * A call that could not reach its object (restarting after a deploy, overloaded) is "busy": nothing was decided for
 * this attempt that a retry with the same idempotency key would not replay.
 */
async function guarded<T>(call: () => Promise<T>): Promise<T | LedgerFailure> {
  try {
    return await call();
  } catch (error) {
    console.warn(JSON.stringify({ level: "warn", msg: "ledger unreachable", error: String(error) }));
    return fail("busy", BUSY_MESSAGE);
  }
}

interface LedgerStub {
  apply(userId: string, name: string, input: unknown, forwardedBy?: string): Promise<LedgerResult<unknown>>;
  applyWithToken(
    userId: string,
    tokenHash: string,
    name: string,
    input: unknown,
  ): Promise<LedgerResult<unknown> | null>;
  authenticate(input: { userId: string; tokenHash?: string }): Promise<Standing | null>;
  payerView(input: { userId: string }): Promise<PayerView | null>;
  forgetTokens(): Promise<void>;
  disconnect(reason: string): Promise<number>;
  closeRevoked(input: { sessionIds: string[]; tokenHashes: string[]; reason: string }): Promise<number>;
  pushSettings(data: SettingsData): Promise<number>;
  sweep(input: { userId: string }): Promise<void>;
  fetch(request: Request): Promise<Response>;
}

type Operations = { [K in LedgerOpName]: (input: LedgerInput<K>) => Promise<LedgerResult<LedgerOutcome<K>>> };

export type LedgerClient = Operations & {
  /** An API request's token check and operation in one call; null when the token is not accepted. */
  withToken<K extends LedgerOpName>(
    tokenHash: string,
    name: K,
    input: LedgerInput<K>,
  ): Promise<LedgerResult<LedgerOutcome<K>> | null>;
  /**
   * A team member's clip operation, forwarded by the member's own ledger to this (the payer's) one. The member's
   * ledger tells the member's sockets itself, so this ledger does not relay the answer to them.
   */
  forwarded<K extends LedgerOpName>(
    memberId: string,
    name: K,
    input: LedgerInput<K>,
  ): Promise<LedgerResult<LedgerOutcome<K>>>;
  /** Who the user is now (`Standing`), a token checked when given; null: banned, unknown or token refused. */
  authenticate(tokenHash?: string): Promise<Standing | null | LedgerFailure>;
  /** A team owner's side of the team, for a member's ledger. */
  payerView(): Promise<PayerView | null | LedgerFailure>;
  forgetTokens(): Promise<void | LedgerFailure>;
  disconnect(reason: string): Promise<number | LedgerFailure>;
  /** Sessions or tokens ended: close the sockets opened with them (4001). */
  closeRevoked(input: { sessionIds: string[]; tokenHashes: string[]; reason: string }): Promise<number | LedgerFailure>;
  pushSettings(data: SettingsData): Promise<number | LedgerFailure>;
  sweep(): Promise<void | LedgerFailure>;
  /** A WebSocket upgrade, already authenticated by the Worker. */
  fetch(request: Request): Promise<Response>;
};

/**
 * The user's UserLedger — the one door to their plan, period, credits, holds and ban. The only way to call the
 * object: it fills in the user, types every operation (`app/domain/ledger`), and maps an unreachable or
 * overloaded object to `503 busy` (send `busyHeaders(result)` with it).
 */
export function ledger(env: AppEnv, userId: string): LedgerClient {
  // The RPC stub's inferred types are too deep to check per operation; `Operations` types each call instead.
  const stub = env.USER_LEDGER.get(env.USER_LEDGER.idFromName(userId)) as unknown as LedgerStub;
  const operations = Object.fromEntries(
    Object.keys(LEDGER_OPS).map((name) => [name, (input: unknown) => guarded(() => stub.apply(userId, name, input))]),
  ) as unknown as Operations;
  return {
    ...operations,
    withToken: (tokenHash, name, input) => guarded(() => stub.applyWithToken(userId, tokenHash, name, input)) as never,
    forwarded: (memberId, name, input) => guarded(() => stub.apply(userId, name, input, memberId)) as never,
    authenticate: (tokenHash) => guarded(() => stub.authenticate({ userId, tokenHash })),
    payerView: () => guarded(() => stub.payerView({ userId })),
    forgetTokens: () => guarded(() => stub.forgetTokens()),
    disconnect: (reason) => guarded(() => stub.disconnect(reason)),
    closeRevoked: (input) => guarded(() => stub.closeRevoked(input)),
    pushSettings: (data) => guarded(() => stub.pushSettings(data)),
    sweep: () => guarded(() => stub.sweep({ userId })),
    fetch: (request) => stub.fetch(request),
  };
}
