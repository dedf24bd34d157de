import type { MeResponse } from "../../../app/domain/api";
import type { AccountStatus } from "./messages";

/** How old a remembered account may be before an ordinary ask also checks it with the site again. */
export const RECHECK_AFTER_MS = 60_000;

const SIGNED_OUT: AccountStatus = { signedIn: false, account: null };

/**
 * The background's last good answer of /api/v1/me, for the token it was asked with (stale-while-revalidate): the
 * panel opens on it at once and asks for a fresh check beside it. A new or removed token forgets it at once, and a
 * check the site refuses (revoked token) replaces it with "signed out". Memory only: it goes with the service
 * worker, and the token never leaves the background.
 */
export function createAccountMemo(fetchAccount: (apiKey: string) => Promise<MeResponse | null>, now = Date.now) {
  let last: { apiKey: string; account: MeResponse; at: number } | null = null;
  let checking: { apiKey: string; answer: Promise<AccountStatus> } | null = null;
  // Bumped by forget(): a check started before a sign-out must not bring the old account back.
  let generation = 0;

  function check(apiKey: string): Promise<AccountStatus> {
    if (checking?.apiKey === apiKey) return checking.answer;
    const started = generation;
    const answer = fetchAccount(apiKey)
      .catch(() => null)
      .then((account): AccountStatus => {
        if (started === generation) last = account ? { apiKey, account, at: now() } : null;
        if (checking?.answer === answer) checking = null;
        return account ? { signedIn: true, account } : SIGNED_OUT;
      });
    checking = { apiKey, answer };
    return answer;
  }

  return {
    /**
     * The account for this token: with `fresh`, as the site answers now; otherwise the remembered one at once (checked
     * again in the background once it is old), or the site's answer when there is none.
     */
    get(apiKey: string | null, fresh: boolean): Promise<AccountStatus> {
      if (!apiKey) return Promise.resolve(SIGNED_OUT);
      if (fresh || !last || last.apiKey !== apiKey) return check(apiKey);
      if (now() - last.at >= RECHECK_AFTER_MS) void check(apiKey);
      return Promise.resolve({ signedIn: true, account: last.account });
    },
    /** The token changed or was removed: nothing remembered may answer for it. */
    forget() {
      generation++;
      last = null;
      checking = null;
    },
  };
}
