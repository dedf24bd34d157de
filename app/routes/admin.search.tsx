import { redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { AdminErrorBoundary } from "~/components/admin/error";
import { PageHeader, Panel } from "~/components/admin/ui";
import { searchAdmin } from "~/db/admin.server";
import { getDb } from "~/db/client.server";
import { requireAdmin } from "~/services/auth.server";

const qSchema = z.string().trim().max(200).catch("");

/** Sidebar search: one match jumps straight to it, several are listed. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  const q = qSchema.parse(new URL(request.url).searchParams.get("q") ?? "");
  if (!q) return { q, users: [], clips: [] };
  const found = await searchAdmin(getDb(context.cloudflare.env.DB), q);
  const [onlyUser] = found.users;
  const [onlyClip] = found.clips;
  if (found.users.length === 1 && found.clips.length === 0 && onlyUser) {
    throw redirect(`/admin/users?q=${encodeURIComponent(onlyUser.email)}`);
  }
  if (found.clips.length === 1 && found.users.length === 0 && onlyClip) {
    throw redirect(`/admin/clips?q=${encodeURIComponent(onlyClip.name)}`);
  }
  return { q, ...found };
}

export default function AdminSearch() {
  const { q, users, clips } = useLoaderData<typeof loader>();
  return (
    <div>
      <PageHeader title={q ? `Results for “${q}”` : "Search"} crumb="Search" />
      <div className="grid gap-6 md:grid-cols-2">
        <Panel title="Users">
          {users.length === 0 ? (
            <p className="text-sm text-slate-600">No users found.</p>
          ) : (
            <ul className="space-y-2">
              {users.map((u) => (
                <li key={u.id}>
                  <Link to={`/admin/users?q=${encodeURIComponent(u.email)}`} className="text-brand-700 hover:underline">
                    {u.fullName}
                  </Link>
                  <span className="block text-xs text-slate-600">{u.email}</span>
                </li>
              ))}
            </ul>
          )}
        </Panel>
        <Panel title="Clips">
          {clips.length === 0 ? (
            <p className="text-sm text-slate-600">No clips found.</p>
          ) : (
            <ul className="space-y-2">
              {clips.map((c) => (
                <li key={c.id}>
                  <Link to={`/admin/clips?q=${encodeURIComponent(c.name)}`} className="text-brand-700 hover:underline">
                    {c.name}
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </Panel>
      </div>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Search | Admin | ClipCut" }];

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
