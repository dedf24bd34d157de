import type { AppEnv } from "~/load-context";
import { ledger } from "./ledger.server";

/** "Connect and get 1 free credit": once per user ever, decided by the user's ledger. */
export function connectPlugin(env: AppEnv, userId: string) {
  return ledger(env, userId).pluginConnect({});
}
