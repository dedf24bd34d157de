import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { AdminErrorBoundary } from "~/components/admin/error";
import { ListTable, Td } from "~/components/list";
import { formatDateTime, PageHeader, Panel } from "~/components/admin/ui";
import { ledgerHealth } from "~/db/admin.server";
import { recentAlerts } from "~/db/billing.server";
import { getDb } from "~/db/client.server";
import { requireAdmin } from "~/services/auth.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  const db = getDb(context.cloudflare.env.DB);
  const [{ mismatched, staleHolds }, alerts] = await Promise.all([ledgerHealth(db), recentAlerts(db)]);
  return {
    mismatched,
    alerts: alerts.map((a) => ({ ...a, createdAt: a.createdAt.toISOString() })),
    staleHolds: staleHolds.map((h) => ({ ...h, expiresAt: h.expiresAt.toISOString() })),
    checkedAt: new Date().toISOString(),
  };
}

/**
 * Every balance must equal the sum of its ledger rows; holds must not outlive their expiry. Billing alerts: Stripe
 * events we could not act on (not ours), disputes, and credits spent before their money went back.
 */
export default function AdminLedger() {
  const { mismatched, staleHolds, alerts, checkedAt } = useLoaderData<typeof loader>();
  const healthy = mismatched.length === 0 && staleHolds.length === 0;
  return (
    <div>
      <PageHeader title="Ledger health" />
      <p
        role="status"
        className={`mb-6 rounded-xl border p-4 font-semibold ${healthy ? "border-emerald-200 bg-emerald-50 text-emerald-800" : "border-red-200 bg-red-50 text-red-800"}`}
      >
        {healthy
          ? "All balances reconcile"
          : `${mismatched.length} balance(s) differ from their ledger and ${staleHolds.length} hold(s) are past expiry.`}
        <span className="block text-xs font-normal">Checked {formatDateTime(checkedAt)} UTC</span>
      </p>
      <div className="space-y-6">
        <Panel title="Balances that differ from the ledger">
          <ListTable
            caption="Balances that differ from the ledger"
            columns={["User", "Email", "Credits", "Ledger sum", "Difference"]}
            isEmpty={mismatched.length === 0}
            empty="None."
          >
            {mismatched.map((m) => (
              <tr key={m.id}>
                <Td>
                  <Link to={`/admin/users?q=${encodeURIComponent(m.email)}`} className="text-brand-700 hover:underline">
                    {m.fullName}
                  </Link>
                </Td>
                <Td>{m.email}</Td>
                <Td className="tabular-nums">{m.credits}</Td>
                <Td className="tabular-nums">{m.ledgerSum}</Td>
                <Td className="tabular-nums">{m.credits - m.ledgerSum}</Td>
              </tr>
            ))}
          </ListTable>
        </Panel>
        <Panel title="Billing alerts">
          <ListTable
            caption="Billing alerts: Stripe events not acted on, disputes, credits owed"
            columns={["When", "Kind", "Stripe event", "User", "What happened"]}
            isEmpty={alerts.length === 0}
            empty="None."
          >
            {alerts.map((a) => (
              <tr key={a.id}>
                <Td>{formatDateTime(a.createdAt)}</Td>
                <Td>{ALERT_KINDS[a.kind]}</Td>
                <Td className="font-mono text-xs">
                  {a.eventType}
                  {a.objectId ? ` · ${a.objectId}` : ""}
                </Td>
                <Td>
                  {a.userId ? (
                    <Link to={`/admin/users/${a.userId}/payments`} className="text-brand-700 hover:underline">
                      Payments
                    </Link>
                  ) : (
                    "—"
                  )}
                </Td>
                <Td>{a.detail}</Td>
              </tr>
            ))}
          </ListTable>
        </Panel>
        <Panel title="Holds past expiry">
          <ListTable
            caption="Holds past expiry"
            columns={["Hold", "User", "Amount", "Expired at"]}
            isEmpty={staleHolds.length === 0}
            empty="None."
          >
            {staleHolds.map((h) => (
              <tr key={h.id}>
                <Td className="font-mono text-xs">{h.id}</Td>
                <Td>{h.email ?? h.userId}</Td>
                <Td className="tabular-nums">{h.amount}</Td>
                <Td>{formatDateTime(h.expiresAt)}</Td>
              </tr>
            ))}
          </ListTable>
        </Panel>
      </div>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Ledger health | Admin | ClipCut" }];

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}

const ALERT_KINDS = { unmatched: "Unmatched Stripe event", dispute: "Dispute", owed: "Credits owed" } as const;
