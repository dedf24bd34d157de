import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Outlet, useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { useEffect } from "react";
import { AppShell } from "~/components/app-shell";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { MaintenanceModal } from "~/components/maintenance-modal";
import { getDb } from "~/db/client.server";
import { requireUser } from "~/services/auth.server";
import { getExtensionId } from "~/services/settings.server";
import { memberTeamSummary } from "~/services/teams.server";
import { isRealtimeRevalidation, RealtimeProvider } from "~/components/realtime";
import { sendToExtension } from "~/utils/extension-bridge";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const db = getDb(context.cloudflare.env.DB);
  const [extensionId, team] = await Promise.all([
    getExtensionId(db, context.cloudflare.env),
    memberTeamSummary(db, user.id, user.standing),
  ]);
  // Plan, balance and team as the user's ledger answered them with the session (`requireUser`): no D1 read.
  return {
    user: { id: user.id, fullName: user.fullName, email: user.email, role: user.role },
    live: {
      credits: user.standing.credits,
      plan: user.plan as string,
      pendingPlan: user.pendingPlan as string | null,
    },
    showMaintenanceNotification: user.showMaintenanceNotification,
    extensionId,
    // A team member clips on the team's plan and balance (shown beside their own, which `live` keeps current).
    team,
  };
}

/**
 * The socket keeps credits and plan current, so a revalidation the realtime provider asks for (same URL, no form)
 * skips this layout: only the page's loader runs.
 */
export const shouldRevalidate: ShouldRevalidateFunction = (args) =>
  isRealtimeRevalidation(args) ? false : args.defaultShouldRevalidate;

const linkedKey = (userId: string) => `clipcut:extension-linked:${userId}`;

/** Once per browser session: when the extension answers, give it a revocable token (never the session cookie). */
function useExtensionLink(extensionId: string, userId: string) {
  useEffect(() => {
    // No allowed extension on this deployment: no token leaves the site.
    if (!extensionId || sessionStorage.getItem(linkedKey(userId))) return;
    let cancelled = false;
    void (async () => {
      if (!(await sendToExtension(extensionId, { action: "ping" })) || cancelled) return;
      const response = await fetch("/api/v1/token", { method: "POST" });
      if (!response.ok || cancelled) return;
      const { token } = (await response.json()) as { token: string };
      const reply = await sendToExtension(extensionId, { action: "setApiKey", apiKey: token });
      if (reply?.success) sessionStorage.setItem(linkedKey(userId), "1");
    })();
    return () => {
      cancelled = true;
    };
  }, [extensionId, userId]);
}

export default function SignedInLayout() {
  const { user, live, showMaintenanceNotification, extensionId } = useLoaderData<typeof loader>();
  useExtensionLink(extensionId, user.id);
  const onSignOut = () => {
    sessionStorage.removeItem(linkedKey(user.id));
    void sendToExtension(extensionId, { action: "clearApiKey" });
  };
  return (
    <RealtimeProvider initial={live} extensionId={extensionId}>
      <AppShell onSignOut={onSignOut} userName={user.fullName}>
        <Outlet />
        <MaintenanceModal show={showMaintenanceNotification} />
      </AppShell>
    </RealtimeProvider>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
