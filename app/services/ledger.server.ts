import {
  BUSY_MESSAGE,
  fail,
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

/** The user's object, as the binding declares it (workers/app.ts's class, which wrangler's generated `Env` names). */
type LedgerObject = AppEnv["USER_LEDGER"] extends DurableObjectNamespace<infer T> ? T : never;

type Operation<K extends LedgerOpName> = (input: LedgerInput<K>) => Promise<LedgerResult<LedgerOutcome<K>>>;
type Operations = { [K in LedgerOpName]: Operation<K> };

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
  const stub = env.USER_LEDGER.get(env.USER_LEDGER.idFromName(userId));
  // Workers' RPC types instantiate a generic method at its bound, so on the stub `apply` answers any operation's
  // outcome; the class's own signatures tie the answer to the operation named. The one cast restores them.
  const generic = stub as Pick<LedgerObject, "apply" | "applyWithToken">;
  const call =
    <K extends LedgerOpName>(name: K): Operation<K> =>
    (input) =>
      guarded(() => generic.apply(userId, name, input));
  return {
    ...operations(call),
    withToken: (tokenHash, name, input) => guarded(() => generic.applyWithToken(userId, tokenHash, name, input)),
    forwarded: (memberId, name, input) => guarded(() => generic.apply(userId, name, input, memberId)),
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

/** Every operation by name; the compiler holds this list to `LEDGER_OPS` (a missing or extra name does not build). */
const operations = (call: <K extends LedgerOpName>(name: K) => Operation<K>): Operations => ({
  charge: call("charge"),
  reserve: call("reserve"),
  capture: call("capture"),
  release: call("release"),
  expire: call("expire"),
  refund: call("refund"),
  deleteClip: call("deleteClip"),
  welcome: call("welcome"),
  pluginConnect: call("pluginConnect"),
  starterReset: call("starterReset"),
  adjust: call("adjust"),
  adminEdit: call("adminEdit"),
  changePlan: call("changePlan"),
  renew: call("renew"),
  applySubscription: call("applySubscription"),
  followMoney: call("followMoney"),
  setBanned: call("setBanned"),
  closeAccount: call("closeAccount"),
  teamJoin: call("teamJoin"),
  teamRemove: call("teamRemove"),
  teamClose: call("teamClose"),
  payerChanged: call("payerChanged"),
  relay: call("relay"),
});
