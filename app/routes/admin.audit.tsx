import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { AdminErrorBoundary } from "~/components/admin/error";
import { FilterForm, ListTable, Pagination, Td, type FilterField } from "~/components/list";
import { formatDateTime, PageHeader } from "~/components/admin/ui";
import { listAudit } from "~/db/admin.server";
import { getDb } from "~/db/client.server";
import { auditList } from "~/domain/admin-audit";
import { requireAdmin } from "~/services/auth.server";

const PAGE_SIZE = 25;
const FILTERS: FilterField[] = [
  { kind: "text", name: "actor", label: "Actor (e-mail or id)" },
  { kind: "text", name: "action", label: "Action (prefix)", placeholder: "admin." },
  { kind: "date", name: "from", label: "From" },
  { kind: "date", name: "to", label: "To" },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  const query = auditList.parse(new URL(request.url).searchParams);
  const list = await listAudit(getDb(context.cloudflare.env.DB), query, PAGE_SIZE);
  return { query, ...list, rows: list.rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })) };
}

export default function AdminAudit() {
  const { query, rows, total, pages } = useLoaderData<typeof loader>();
  const href = (page: number) => auditList.href("/admin/audit", query, { page });
  return (
    <div>
      <PageHeader
        title="Audit log"
        actions={
          <a
            href={`/admin/audit/export?${auditList.search(query, { page: undefined })}`}
            download="audit_log.csv"
            className="btn-secondary"
          >
            Export CSV
          </a>
        }
      />
      <FilterForm fields={FILTERS} values={query} idPrefix="a" resetHref="/admin/audit" submitLabel="Filter" />
      <ListTable
        caption="Audit events"
        columns={["When (UTC)", "Action", "Actor", "Subject", "Details", "IP"]}
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
      </ListTable>
      <Pagination page={query.page} pages={pages} total={total} pageSize={PAGE_SIZE} href={href} />
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Audit log | Admin | ClipCut" }];

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
