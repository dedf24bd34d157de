import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useLoaderData } from "@remix-run/react";
import { asc } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "~/db/client.server";
import { users } from "~/db/schema";
import { requireAdmin } from "~/services/auth.server";
import { clientIp } from "~/services/rate-limit.server";
import { banUser } from "~/services/user-moderation.server";
import { formObject } from "~/utils/forms";

const banSchema = z.object({ intent: z.literal("ban"), userId: z.string().uuid() });

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  const db = getDb(context.cloudflare.env.DB);
  const rows = await db
    .select({
      id: users.id,
      fullName: users.fullName,
      email: users.email,
      role: users.role,
      plan: users.plan,
      credits: users.credits,
      status: users.status,
    })
    .from(users)
    .orderBy(asc(users.fullName))
    .limit(100);
  return { users: rows };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const parsed = banSchema.safeParse(formObject(await request.formData()));
  if (!parsed.success) return data({ error: "Unknown request." }, { status: 400 });
  const { env } = context.cloudflare;
  const result = await banUser({
    env,
    db: getDb(env.DB),
    actorId: admin.id,
    userId: parsed.data.userId,
    ip: clientIp(request),
  });
  if (!result.ok) return data({ error: result.message }, { status: result.status });
  return { error: null };
}

export default function AdminUsers() {
  const { users: rows } = useLoaderData<typeof loader>();
  return (
    <div>
      <h1 className="text-2xl font-bold">Users</h1>
      <div className="mt-6 overflow-x-auto rounded-xl border border-slate-200 bg-white">
        <table className="w-full text-left text-sm">
          <thead className="bg-slate-50">
            <tr>
              {["Name", "Email", "Role", "Plan", "Credits", "Status", "Actions"].map((h) => (
                <th key={h} scope="col" className="px-4 py-2 font-semibold">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((u) => (
              <tr key={u.id}>
                <td className="px-4 py-2">{u.fullName}</td>
                <td className="px-4 py-2">{u.email}</td>
                <td className="px-4 py-2">{u.role}</td>
                <td className="px-4 py-2">{u.plan === "Plugin" ? "Free" : u.plan}</td>
                <td className="px-4 py-2">{u.credits}</td>
                <td className="px-4 py-2">{u.status}</td>
                <td className="px-4 py-2">
                  {u.status !== "Banned" && (
                    <Form
                      method="post"
                      onSubmit={(event) => {
                        const msg = `Are you sure you want to ban ${u.fullName}? This will mark their account as 'Banned'.`;
                        if (!window.confirm(msg)) event.preventDefault();
                      }}
                    >
                      <input type="hidden" name="intent" value="ban" />
                      <input type="hidden" name="userId" value={u.id} />
                      <button
                        type="submit"
                        className="text-sm font-semibold text-red-700 hover:underline"
                        aria-label={`Ban ${u.fullName}`}
                      >
                        Ban
                      </button>
                    </Form>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Users | Admin | ClipCut" }];
