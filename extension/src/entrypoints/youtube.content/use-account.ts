import { useEffect, useRef, useState } from "react";
import { browser } from "wxt/browser";
import type { Credits } from "../../../../app/domain/api";
import { ACCOUNT_PORT } from "../../lib/account-feed";
import { createJobBalance } from "../../lib/job-balance";
import { applyAccountMessage, type AccountMessage } from "../../lib/live-account";
import type { AccountStatus, Job } from "../../lib/messages";
import { ask } from "../../lib/send";

const RECONNECT_MS = 1000;

/**
 * The account (plan, limits, available credits): the page's early answer until the site's own, asked once on
 * opening (a revoked token then shows as signed out). After that the balance comes from the site's realtime socket,
 * through the background: a clip's reservation, capture or release moves it without asking /api/v1/me again; and a
 * clip this panel sent brings the balance its capture answered (job-balance.ts), for when the socket is slow. Only a
 * new plan (new limits) is asked of the site.
 */
export function useAccount(signal: AbortSignal, known: AccountStatus | null, jobs: Job[]) {
  const [status, setStatus] = useState<AccountStatus | null>(known);
  const balance = useRef(createJobBalance()).current;
  const showCredits = (credits: Credits) =>
    setStatus((prev) => (prev?.account ? { ...prev, account: { ...prev.account, credits } } : prev));
  const checked = useRef(false);
  const current = useRef(status);
  current.current = status;

  useEffect(() => {
    if (known && !checked.current) setStatus(known);
  }, [known]);

  const check = useRef(
    () =>
      void ask({ type: "account", fresh: true }).then((result) => {
        if (signal.aborted) return;
        checked.current = true;
        setStatus(result.ok ? result.value : null);
      }),
  ).current;
  useEffect(check, [check]);

  useAccountFeed(signal, status?.signedIn === true, (message) => {
    const account = current.current?.account;
    if (!account) return;
    const member = account.team != null;
    const live = applyAccountMessage({ credits: account.credits, plan: account.user.plan }, message, member);
    if (!live) return;
    balance.socket();
    if (live.plan !== account.user.plan) return check();
    showCredits(live.credits);
  });

  useEffect(() => {
    const credits = balance.jobs(jobs);
    if (credits) showCredits(credits);
  }, [balance, jobs]);

  return status;
}

/** Follows the account feed (background's port) while `enabled`; a dropped port reconnects (a fresh snapshot). */
function useAccountFeed(signal: AbortSignal, enabled: boolean, onMessage: (message: AccountMessage) => void) {
  const handler = useRef(onMessage);
  handler.current = onMessage;
  useEffect(() => {
    if (!enabled) return;
    let port: ReturnType<typeof browser.runtime.connect> | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    function connect() {
      if (stopped || signal.aborted) return;
      try {
        port = browser.runtime.connect({ name: ACCOUNT_PORT });
      } catch {
        // The extension was reloaded: this page's panel has no background any more.
        return;
      }
      port.onMessage.addListener((message: AccountMessage) => handler.current(message));
      port.onDisconnect.addListener(() => {
        port = null;
        if (!stopped) retry = setTimeout(connect, RECONNECT_MS);
      });
    }
    connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      port?.disconnect();
    };
  }, [signal, enabled]);
}
