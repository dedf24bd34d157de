import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useState } from "react";
import { Form, Link, Outlet, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { AdminIcon } from "~/components/admin/icons";
import { AdminErrorBoundary } from "~/components/admin/error";
import { AdminLiveStatus, useAdminFeed, type AdminOutletContext } from "~/components/admin/live";
import { AdminSidebar, NavList } from "~/components/admin/sidebar";
import { formatDateTime } from "~/components/admin/ui";
import { Logo } from "~/components/logo";
import { SkeletonRows } from "~/components/skeleton";
import { latestAudit } from "~/db/admin.server";
import { getDb } from "~/db/client.server";
import { requireAdmin } from "~/services/auth.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const events = await latestAudit(getDb(context.cloudflare.env.DB));
  return {
    name: admin.fullName || admin.email.split("@")[0],
    events: events.map((e) => ({
      id: e.id,
      action: e.action,
      actor: e.actorEmail ?? "system",
      at: e.createdAt.toISOString(),
    })),
  };
}

function Bell({ events }: { events: { id: string; action: string; actor: string; at: string }[] }) {
  return (
    <details className="relative">
      <summary
        className="flex cursor-pointer list-none items-center rounded-lg p-2 text-slate-600 hover:bg-slate-100"
        aria-label="Latest audit events"
      >
        <AdminIcon name="bell" />
      </summary>
      <div className="absolute right-0 z-30 mt-2 w-80 max-w-[90vw] rounded-xl border border-slate-200 bg-white p-3 shadow-lg">
        <p className="mb-2 text-sm font-semibold">Latest audit events</p>
        {events.length === 0 ? (
          <p className="text-sm text-slate-600">Nothing yet.</p>
        ) : (
          <ul className="space-y-2 text-sm">
            {events.map((e) => (
              <li key={e.id}>
                <span className="font-medium">{e.action}</span>
                <span className="block text-xs text-slate-600">
                  {e.actor} · {formatDateTime(e.at)}
                </span>
              </li>
            ))}
          </ul>
        )}
        <Link to="/admin/audit" className="mt-3 block text-sm font-semibold text-brand-700 hover:underline">
          Open the audit log
        </Link>
      </div>
    </details>
  );
}

export default function AdminLayout() {
  const { name, events } = useLoaderData<typeof loader>();
  const [liveExtensionId, setLiveExtensionId] = useState<string | null>(null);
  const live = useAdminFeed((settings) => setLiveExtensionId(settings.extensionId));
  const navigation = useNavigation();
  const location = useLocation();
  const changingPage = navigation.state === "loading" && navigation.location.pathname !== location.pathname;
  return (
    <div className="flex min-h-full flex-1 flex-col bg-slate-50">
      <header className="sticky top-0 z-20 flex items-center gap-3 border-b border-slate-200 bg-white px-4 py-3 md:px-6">
        <Logo />
        <Form method="get" action="/admin/search" role="search" className="ml-2 hidden flex-1 sm:block sm:max-w-xs">
          <label htmlFor="admin-search" className="sr-only">
            Search users and clips
          </label>
          <input
            id="admin-search"
            name="q"
            type="search"
            placeholder="Search users or clips..."
            className="input py-2"
          />
        </Form>
        <div className="ml-auto flex items-center gap-2">
          <AdminLiveStatus status={live.status} onRetry={live.retry} />
          <Bell events={events} />
          <a href="/account" className="text-right text-sm leading-tight">
            <span className="block font-medium">{name}</span>
            <span className="block text-xs text-slate-600">Super Admin</span>
          </a>
        </div>
      </header>
      <details className="border-b border-slate-200 bg-white px-4 py-2 md:hidden">
        <summary className="cursor-pointer text-sm font-semibold">Menu</summary>
        <Form method="get" action="/admin/search" role="search" className="mt-2">
          <label htmlFor="admin-search-mobile" className="sr-only">
            Search users and clips
          </label>
          <input
            id="admin-search-mobile"
            name="q"
            type="search"
            placeholder="Search users or clips..."
            className="input"
          />
        </Form>
        <nav aria-label="Admin menu" className="mt-2">
          <NavList />
        </nav>
      </details>
      <div className="flex flex-1">
        <AdminSidebar />
        <main id="main" className="min-w-0 flex-1 p-4 md:p-6">
          {changingPage ? (
            <SkeletonRows rows={6} label="Loading page" />
          ) : (
            <Outlet context={{ liveExtensionId } satisfies AdminOutletContext} />
          )}
        </main>
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <main id="main" className="p-6">
      <AdminErrorBoundary />
    </main>
  );
}
