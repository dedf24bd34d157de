import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { NavLink, Outlet, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { Logo } from "~/components/logo";
import { requireAdmin } from "~/services/auth.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request, context);
  return { name: admin.fullName || admin.email.split("@")[0] };
}

export default function AdminLayout() {
  const { name } = useLoaderData<typeof loader>();
  return (
    <div className="flex min-h-full flex-1 flex-col bg-slate-50">
      <header className="flex items-center justify-between border-b border-slate-200 bg-white px-6 py-3">
        <Logo />
        <a href="/account" className="text-sm">
          <span className="font-medium">{name}</span> <span className="text-slate-500">Super Admin</span>
        </a>
      </header>
      <div className="flex flex-1">
        <nav aria-label="Admin" className="w-56 border-r border-slate-200 bg-white p-4">
          <ul className="space-y-1 text-sm">
            <li>
              <NavLink to="/admin" end className="block rounded px-3 py-2 hover:bg-slate-100">
                Overviews
              </NavLink>
            </li>
            <li>
              <NavLink to="/admin/users" className="block rounded px-3 py-2 hover:bg-slate-100">
                Users
              </NavLink>
            </li>
          </ul>
        </nav>
        <main id="main" className="flex-1 p-6">
          <Outlet />
        </main>
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
