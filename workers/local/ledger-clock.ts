import type { AppEnv } from "../../app/load-context";
import type { UserLedger } from "../local";

/**
 * A user's object as the local Worker binds it (workers/local.ts's class, with its test-clock port). The binding's
 * declared type is production's class, which has no such port; the local Worker binds the subclass.
 */
export function localLedger(env: AppEnv, userId: string): DurableObjectStub<UserLedger> {
  const namespace = env.USER_LEDGER as unknown as DurableObjectNamespace<UserLedger>;
  return namespace.get(namespace.idFromName(userId));
}
