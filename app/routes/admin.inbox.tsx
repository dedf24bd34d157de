import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { StatusBadge } from "~/components/admin/badge";
import { AdminErrorBoundary } from "~/components/admin/error";
import { formatDateTime, PageHeader, StatCard, StatGrid } from "~/components/admin/ui";
import { FilterForm, ListTable, Pagination, Td, type FilterField } from "~/components/list";
import { getDb } from "~/db/client.server";
import { countNotifyRequests, listContactMessages } from "~/db/inbox.server";
import { ADMIN_PAGE_SIZE } from "~/domain/admin";
import { INBOX_STATUS_LABELS, INBOX_STATUSES, inboxList } from "~/domain/inbox";
import { requireAdmin } from "~/services/auth.server";

const FILTERS: FilterField[] = [
  { kind: "search", name: "q", label: "Search", placeholder: "Name, email or words", wide: true },
  { kind: "select", name: "status", label: "Status", options: INBOX_STATUSES, labels: INBOX_STATUS_LABELS },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  const db = getDb(context.cloudflare.env.DB);
  const query = inboxList.parse(new URL(request.url).searchParams);
  const [list, notifyCount] = await Promise.all([
    listContactMessages(db, query, ADMIN_PAGE_SIZE),
    countNotifyRequests(db),
  ]);
  return {
    query,
    ...list,
    notifyCount,
    rows: list.rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
  };
}

export default function AdminInbox() {
  const { query, rows, total, pages, counts, notifyCount } = useLoaderData<typeof loader>();
  const href = (page: number) => inboxList.href("/admin/inbox", query, { page });
  return (
    <div>
      <PageHeader
        title="Inbox"
        actions={
          <a href="/admin/inbox/notify-export" download="notify_me_signups.csv" className="btn-secondary">
            Export Notify Me sign-ups (CSV)
          </a>
        }
      />
      <StatGrid>
        <StatCard label="New messages" value={counts.new.toLocaleString("en-US")} testId="inbox-new" />
        <StatCard label="Answered" value={counts.answered.toLocaleString("en-US")} />
        <StatCard label="Closed" value={counts.closed.toLocaleString("en-US")} />
        <StatCard
          label="Safari “Notify Me” sign-ups"
          value={notifyCount.toLocaleString("en-US")}
          testId="notify-count"
        />
      </StatGrid>
      <FilterForm
        fields={FILTERS}
        values={query}
        idPrefix="i"
        resetHref="/admin/inbox"
        gridClass="sm:grid-cols-3"
        submitLabel="Filter"
      />
      <ListTable
        caption="Contact messages"
        // Phones see who wrote, when, and the status; the topic and the words from wider screens on.
        columns={[
          { label: "Received (UTC)", className: "hidden sm:table-cell" },
          "From",
          { label: "Topic", className: "hidden lg:table-cell" },
          { label: "Message", className: "hidden xl:table-cell" },
          "Status",
        ]}
        minWidth={false}
        isEmpty={rows.length === 0}
        empty="No messages found."
      >
        {rows.map((m) => (
          <tr key={m.id} data-testid="inbox-row">
            <Td className="hidden sm:table-cell">{formatDateTime(m.createdAt)}</Td>
            <Td className="max-w-[14rem] !whitespace-normal break-words">
              <Link
                to={`/admin/inbox/${m.id}`}
                className="block font-semibold text-brand-700 hover:underline"
                aria-label={`Open the message from ${m.name} (${INBOX_STATUS_LABELS[m.status]})`}
              >
                {m.name}
              </Link>
              <span className="block text-xs text-slate-600">{m.email}</span>
              <span className="block text-xs text-slate-600 sm:hidden">{formatDateTime(m.createdAt)}</span>
            </Td>
            <Td className="hidden lg:table-cell">{m.topic}</Td>
            <Td className="hidden max-w-xs truncate text-slate-700 xl:table-cell">{m.preview}</Td>
            <Td>
              <StatusBadge value={INBOX_STATUS_LABELS[m.status]} />
            </Td>
          </tr>
        ))}
      </ListTable>
      <Pagination page={query.page} pages={pages} total={total} pageSize={ADMIN_PAGE_SIZE} href={href} />
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Inbox | Admin | ClipCut" }];

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
