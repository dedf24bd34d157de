import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { AdminErrorBoundary } from "~/components/admin/error";
import { DataTable, formatDateTime, PageHeader, Pagination, Td } from "~/components/admin/ui";
import { listAudit } from "~/db/admin.server";
import { getDb } from "~/db/client.server";
import { parseAuditQuery } from "~/domain/admin-audit";
import { requireAdmin } from "~/services/auth.server";

const PAGE_SIZE = 25;

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  const query = parseAuditQuery(new URL(request.url).searchParams);
  const list = await listAudit(getDb(context.cloudflare.env.DB), query, PAGE_SIZE);
  return { query, ...list, rows: list.rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })) };
}

export default function AdminAudit() {
  const { query, rows, total, pages } = useLoaderData<typeof loader>();
  const filters = Object.entries({ actor: query.actor, action: query.action, from: query.from, to: query.to }).filter(
    (e): e is [string, string] => Boolean(e[1]),
  );
  const href = (page: number) =>
    `/admin/audit?${new URLSearchParams([...filters, ...(page > 1 ? [["page", String(page)]] : [])])}`;
  return (
    <div>
      <PageHeader
        title="Audit log"
        actions={
          <a
            href={`/admin/audit/export?${new URLSearchParams(filters)}`}
            download="audit_log.csv"
            className="btn-secondary"
          >
            Export CSV
          </a>
        }
      />
      <Form
        method="get"
        className="mb-4 grid gap-3 rounded-xl border border-slate-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-5"
      >
        <div>
          <label htmlFor="a-actor" className="label">
            Actor (e-mail or id)
          </label>
          <input id="a-actor" name="actor" defaultValue={query.actor ?? ""} className="input" />
        </div>
        <div>
          <label htmlFor="a-action" className="label">
            Action (prefix)
          </label>
          <input id="a-action" name="action" defaultValue={query.action ?? ""} placeholder="admin." className="input" />
        </div>
        <div>
          <label htmlFor="a-from" className="label">
            From
          </label>
          <input id="a-from" name="from" type="date" defaultValue={query.from ?? ""} className="input" />
        </div>
        <div>
          <label htmlFor="a-to" className="label">
            To
          </label>
          <input id="a-to" name="to" type="date" defaultValue={query.to ?? ""} className="input" />
        </div>
        <div className="flex items-end gap-2">
          <button type="submit" className="btn-primary">
            Filter
          </button>
          <Link to="/admin/audit" className="btn-ghost">
            Reset
          </Link>
        </div>
      </Form>
      <DataTable
        caption="Audit events"
        headers={["When (UTC)", "Action", "Actor", "Subject", "Details", "IP"]}
        isEmpty={rows.length === 0}
        empty="No audit events found."
      >
        {rows.map((r) => (
          <tr key={r.id}>
            <Td>{formatDateTime(r.createdAt)}</Td>
            <Td className="font-medium">{r.action}</Td>
            <Td>{r.actorEmail ?? r.actorId ?? "system"}</Td>
            <Td className="font-mono text-xs">{r.subjectId ?? ""}</Td>
            <Td className="max-w-xs truncate text-xs">{r.details ?? ""}</Td>
            <Td className="text-xs">{r.ip ?? ""}</Td>
          </tr>
        ))}
      </DataTable>
      <Pagination page={query.page} pages={pages} total={total} pageSize={PAGE_SIZE} href={href} />
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Audit log | Admin | ClipCut" }];

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
