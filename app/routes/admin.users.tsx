import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { StatusBadge } from "~/components/admin/badge";
import { AdminErrorBoundary } from "~/components/admin/error";
import { DataTable, PageHeader, Pagination, Td } from "~/components/admin/ui";
import { findUser, listUsers } from "~/db/admin.server";
import { getDb } from "~/db/client.server";
import { teamOfUser, type TeamOfUser } from "~/db/teams.server";
import { ADMIN_MESSAGES, ADMIN_PAGE_SIZE, parseUserListQuery, type UserListQuery } from "~/domain/admin";
import { NEW_USER_CREDITS } from "~/domain/credits";
import { PLAN_IDS } from "~/domain/plans";
import { addUser, editUser } from "~/services/admin-users.server";
import { adminRightsRefusal } from "~/services/admin-rights.server";
import { requireAdmin } from "~/services/auth.server";
import { clientIp } from "~/services/rate-limit.server";
import { banUser, signOutEverywhere, unbanUser } from "~/services/user-moderation.server";
import { readForm } from "~/utils/forms";

const credits = z
  .string()
  .trim()
  .transform((v) => (v === "" ? "0" : v))
  .pipe(z.string().regex(/^\d+$/, "Credits must be a whole number of at least 0."))
  .transform(Number)
  .pipe(z.number().int().max(100_000_000, "Credits must be at most 100,000,000."));
const fullName = z.string().trim().min(1, "Full name is required.").max(120, "Full name is too long.");
const key = z.string().regex(/^[\w-]{8,64}$/);
// The admin's own password, for role and credit changes (step-up, app/services/step-up.server.ts).
const currentPassword = z.string().max(1024).optional();

const actionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("add"),
    fullName,
    email: z.string().trim().toLowerCase().email("Please enter a valid email address.").max(254),
    role: z.enum(["user", "admin"]),
    plan: z.enum(PLAN_IDS),
    credits,
    key,
    currentPassword,
  }),
  z.object({
    intent: z.literal("edit"),
    userId: z.string().uuid(),
    fullName,
    role: z.enum(["user", "admin"]),
    plan: z.enum(PLAN_IDS),
    credits,
    reason: z.string().trim().max(200, "The reason is too long (200 characters at most).").default(""),
    key,
    currentPassword,
  }),
  z.object({ intent: z.literal("ban"), userId: z.string().uuid() }),
  z.object({ intent: z.literal("unban"), userId: z.string().uuid() }),
  z.object({ intent: z.literal("signout"), userId: z.string().uuid() }),
]);

const NOTICES = {
  added: "User added. An invitation e-mail with a set-password link was sent.",
  saved: "User saved.",
  banned: "User banned.",
  unbanned: "User unbanned.",
  signedout: "The user was signed out everywhere.",
} as const;

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  const db = getDb(context.cloudflare.env.DB);
  const params = new URL(request.url).searchParams;
  const query = parseUserListQuery(params);
  let list: Awaited<ReturnType<typeof listUsers>>;
  try {
    list = await listUsers(db, query);
  } catch (error) {
    console.error(JSON.stringify({ level: "error", msg: "admin users list failed", error: String(error) }));
    throw data(ADMIN_MESSAGES.usersLoadFailed, { status: 500 });
  }
  const editId = params.get("edit");
  const editing = editId && z.string().uuid().safeParse(editId).success ? await findUser(db, editId) : undefined;
  // The Pro team the edited user is in, if any: who owns it and who shares its plan and balance.
  const team = editing ? await teamOfUser(db, editing.id) : null;
  const notice = params.get("notice");
  return {
    query,
    ...list,
    editing: editing ?? null,
    team,
    adding: params.get("modal") === "add",
    // A fresh key per rendered form: a double submit of the same form changes credits once.
    formKey: crypto.randomUUID(),
    notice: notice && notice in NOTICES ? NOTICES[notice as keyof typeof NOTICES] : null,
  };
}

/** The list URL with some parameters changed (undefined removes one). */
function listHref(query: UserListQuery, changes: Record<string, string | number | undefined>) {
  const params = new URLSearchParams();
  const merged: Record<string, string | number | undefined> = { ...query, ...changes };
  for (const [k, v] of Object.entries(merged)) {
    if (v === undefined || v === "") continue;
    if ((k === "sort" && v === "full_name") || (k === "dir" && v === "asc") || (k === "page" && v === 1)) continue;
    params.set(k, String(v));
  }
  const s = params.toString();
  return s ? `/admin/users?${s}` : "/admin/users";
}

export async function action({ request, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const env = context.cloudflare.env;
  const db = getDb(env.DB);
  const parsed = actionSchema.safeParse(await readForm(request));
  if (!parsed.success) {
    return data({ error: parsed.error.issues[0]?.message ?? "Invalid request.", intent: null }, { status: 400 });
  }
  const input = parsed.data;
  const ip = clientIp(request);
  const url = new URL(request.url);
  const back = (notice: keyof typeof NOTICES) => {
    const params = new URLSearchParams(url.search);
    params.delete("modal");
    params.delete("edit");
    params.delete("index");
    params.set("notice", notice);
    return redirect(`/admin/users?${params}`);
  };
  const ctx = { env, db, adminId: admin.id, ip, origin: url.origin };
  // Who may act on whom, and step-up for role and credit changes (app/domain/admin-rights.ts).
  const refused = await adminRightsRefusal(env, request, admin, input);
  if (refused) return data({ error: refused.message, intent: input.intent }, { status: refused.status });
  if (input.intent === "add") {
    const result = await addUser(ctx, input);
    if (!result.ok)
      return data({ error: result.message, intent: "add" }, { status: result.status, headers: result.headers });
    return back("added");
  }
  if (input.intent === "edit") {
    const result = await editUser(ctx, input);
    if (!result.ok)
      return data({ error: result.message, intent: "edit" }, { status: result.status, headers: result.headers });
    return back("saved");
  }
  const moderation = { env, db, actorId: admin.id, userId: input.userId, ip };
  const result =
    input.intent === "ban"
      ? await banUser(moderation)
      : input.intent === "unban"
        ? await unbanUser(moderation)
        : await signOutEverywhere(moderation);
  if (!result.ok) return data({ error: result.message, intent: input.intent }, { status: result.status });
  // Answered in place (no redirect): the list stays where it was, with or without JavaScript.
  return {
    error: null,
    intent: input.intent,
    notice: NOTICES[input.intent === "ban" ? "banned" : input.intent === "unban" ? "unbanned" : "signedout"],
  };
}

function SortHeader({ query, column, label }: { query: UserListQuery; column: UserListQuery["sort"]; label: string }) {
  const active = query.sort === column;
  const nextDir = active && query.dir === "asc" ? "desc" : "asc";
  return (
    <Link
      to={listHref(query, { sort: column, dir: nextDir, page: 1 })}
      className="inline-flex items-center gap-1 hover:underline"
      aria-label={`Sort by ${label} ${nextDir === "asc" ? "ascending" : "descending"}`}
    >
      {label}
      <span aria-hidden="true">{active ? (query.dir === "asc" ? "▲" : "▼") : "↕"}</span>
    </Link>
  );
}

function Select({
  name,
  label,
  options,
  value,
  all = "All",
  idPrefix = "f",
}: {
  name: string;
  label: string;
  options: readonly string[];
  value?: string;
  all?: string | null;
  /** The filter form and the edit form both have Role and Plan: their ids must differ, or a label names the other. */
  idPrefix?: string;
}) {
  return (
    <div>
      <label htmlFor={`${idPrefix}-${name}`} className="label">
        {label}
      </label>
      <select id={`${idPrefix}-${name}`} name={name} defaultValue={value ?? ""} className="input">
        {all !== null && <option value="">{all}</option>}
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Who shares this user's Pro team: the owner's plan and balance pay for every member's clips. */
function TeamSummary({ team, userId }: { team: TeamOfUser; userId: string }) {
  const owner = team.people.find((p) => p.role === "owner");
  return (
    <section aria-labelledby="user-team-title" className="mt-4 rounded-lg border border-slate-200 p-3 text-sm">
      <h3 id="user-team-title" className="font-medium">
        {team.ownerId === userId ? "Owns a Pro team" : `Member of ${owner?.fullName ?? "a"}'s Pro team`}
      </h3>
      <ul className="mt-2 space-y-1 text-slate-700">
        {team.people.map((p) => (
          <li key={p.id} className="flex flex-wrap justify-between gap-x-3">
            <span>
              {p.fullName} <span className="text-slate-600">({p.role})</span>
            </span>
            <span className="break-all text-slate-600">{p.email}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function UserModal({
  mode,
  user,
  team = null,
  formKey,
  closeHref,
  error,
}: {
  mode: "add" | "edit";
  team?: TeamOfUser | null;
  user: { id: string; fullName: string; email: string; role: string; plan: string; credits: number } | null;
  formKey: string;
  closeHref: string;
  error: string | null;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === mode;
  const plan = user ? (user.plan === "Plugin" ? "Free" : user.plan) : "Free";
  return (
    <div className="fixed inset-0 z-40 flex items-start justify-center overflow-y-auto bg-slate-900/40 p-4">
      <div
        role="dialog"
        aria-modal="true"
        aria-labelledby="user-modal-title"
        className="mt-10 w-full max-w-lg rounded-2xl bg-white p-6 shadow-xl"
      >
        <h2 id="user-modal-title" className="text-lg font-semibold">
          {mode === "add" ? "Add New User" : `Edit ${user?.fullName ?? "user"}`}
        </h2>
        {error && (
          <p role="alert" className="alert-error mt-4">
            {error}
          </p>
        )}
        {user && team && <TeamSummary team={team} userId={user.id} />}
        <Form method="post" className="mt-4 space-y-4">
          <input type="hidden" name="intent" value={mode} />
          <input type="hidden" name="key" value={formKey} />
          {user && <input type="hidden" name="userId" value={user.id} />}
          <div>
            <label htmlFor="u-fullName" className="label">
              Full Name
            </label>
            <input id="u-fullName" name="fullName" required defaultValue={user?.fullName ?? ""} className="input" />
          </div>
          {mode === "add" ? (
            <div>
              <label htmlFor="u-email" className="label">
                Email
              </label>
              <input id="u-email" name="email" type="email" required className="input" />
            </div>
          ) : (
            <p className="text-sm text-slate-600">Email: {user?.email}</p>
          )}
          <div className="grid gap-4 sm:grid-cols-2">
            <Select
              name="role"
              label="Role"
              options={["user", "admin"]}
              value={user?.role ?? "user"}
              all={null}
              idPrefix="u"
            />
            <Select name="plan" label="Plan" options={PLAN_IDS} value={plan} all={null} idPrefix="u" />
          </div>
          <div>
            <label htmlFor="u-credits" className="label">
              Credits
            </label>
            <input
              id="u-credits"
              name="credits"
              inputMode="numeric"
              pattern="\d*"
              required
              defaultValue={String(user?.credits ?? NEW_USER_CREDITS)}
              className="input"
            />
          </div>
          <div>
            <label htmlFor="u-password" className="label">
              Your password
            </label>
            <input
              id="u-password"
              name="currentPassword"
              type="password"
              autoComplete="current-password"
              className="input"
              aria-describedby="u-password-help"
            />
            <p id="u-password-help" className="mt-1 text-xs text-slate-600">
              Needed for role and credit changes, once every 10 minutes.
            </p>
          </div>
          {mode === "edit" && (
            <div>
              <label htmlFor="u-reason" className="label">
                Reason for a credit change
              </label>
              <input
                id="u-reason"
                name="reason"
                maxLength={200}
                className="input"
                placeholder="e.g. Support goodwill"
              />
              <p className="mt-1 text-xs text-slate-600">Written to the credit ledger with your name.</p>
            </div>
          )}
          <div className="flex justify-end gap-2 pt-2">
            <Link to={closeHref} className="btn-secondary">
              Cancel
            </Link>
            <button type="submit" className="btn-primary" disabled={busy}>
              {busy ? "Saving..." : mode === "add" ? "Add User" : "Save Changes"}
            </button>
          </div>
        </Form>
      </div>
    </div>
  );
}

function ModerationButton({
  intent,
  userId,
  label,
  confirmText,
  danger,
  ariaLabel,
}: {
  intent: "ban" | "unban" | "signout";
  userId: string;
  label: string;
  confirmText?: string;
  danger?: boolean;
  ariaLabel: string;
}) {
  return (
    <Form
      method="post"
      preventScrollReset
      onSubmit={(event) => {
        if (confirmText && !window.confirm(confirmText)) event.preventDefault();
      }}
    >
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="userId" value={userId} />
      <button
        type="submit"
        aria-label={ariaLabel}
        className={`text-sm font-semibold hover:underline ${danger ? "text-red-700" : "text-brand-700"}`}
      >
        {label}
      </button>
    </Form>
  );
}

export default function AdminUsers() {
  const { query, rows, total, page, pages, editing, team, adding, formKey, notice } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const location = useLocation();
  const closeHref = listHref(query, {});
  const listError = actionData?.error && (actionData.intent === null || !["add", "edit"].includes(actionData.intent));
  const exportHref = `/admin/users/export?${new URLSearchParams(
    Object.entries({
      q: query.q,
      status: query.status,
      plan: query.plan,
      role: query.role,
      min: query.min,
      max: query.max,
      sort: query.sort,
      dir: query.dir,
    })
      .filter(([, v]) => v !== undefined && v !== "")
      .map(([k, v]) => [k, String(v)]),
  )}`;
  return (
    <div>
      <PageHeader
        title="User Management"
        crumb="Users"
        actions={
          <>
            <a href={exportHref} className="btn-secondary" download="users_export.csv">
              Export CSV
            </a>
            <Link to={`${closeHref}${closeHref.includes("?") ? "&" : "?"}modal=add`} className="btn-primary">
              Add User
            </Link>
          </>
        }
      />
      {(actionData && "notice" in actionData ? actionData.notice : notice) && (
        <p role="status" className="alert-success mb-4">
          {actionData && "notice" in actionData ? actionData.notice : notice}
        </p>
      )}
      {listError && (
        <p role="alert" className="alert-error mb-4">
          {actionData.error}
        </p>
      )}
      <Form
        method="get"
        className="mb-4 grid grid-cols-1 gap-3 rounded-xl border border-slate-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-7 [&>*]:min-w-0"
        key={location.search}
      >
        <div className="sm:col-span-2">
          <label htmlFor="f-q" className="label">
            Search
          </label>
          <input
            id="f-q"
            name="q"
            type="search"
            defaultValue={query.q ?? ""}
            placeholder="Name or email"
            className="input"
          />
        </div>
        <Select name="status" label="Status" options={["online", "offline", "Banned"]} value={query.status} />
        <Select name="plan" label="Plan" options={PLAN_IDS} value={query.plan} />
        <Select name="role" label="Role" options={["user", "admin"]} value={query.role} />
        <div>
          <label htmlFor="f-min" className="label">
            Credits min
          </label>
          <input id="f-min" name="min" inputMode="numeric" defaultValue={query.min ?? ""} className="input" />
        </div>
        <div>
          <label htmlFor="f-max" className="label">
            Credits max
          </label>
          <input id="f-max" name="max" inputMode="numeric" defaultValue={query.max ?? ""} className="input" />
        </div>
        <input type="hidden" name="sort" value={query.sort} />
        <input type="hidden" name="dir" value={query.dir} />
        <div className="flex min-w-0 flex-wrap items-end gap-2 sm:col-span-2 lg:col-span-7">
          <button type="submit" className="btn-primary">
            Apply
          </button>
          <Link to="/admin/users" className="btn-ghost">
            Reset
          </Link>
          <label htmlFor="f-sort" className="ml-auto text-sm text-slate-700">
            Sort
          </label>
          <select
            id="f-sort"
            className="input w-auto"
            value={`${query.sort}:${query.dir}`}
            onChange={(e) => {
              const [sort, dir] = e.target.value.split(":");
              window.location.assign(listHref(query, { sort, dir, page: 1 }));
            }}
          >
            <option value="full_name:asc">Name (A–Z)</option>
            <option value="full_name:desc">Name (Z–A)</option>
            <option value="email:asc">Email (A–Z)</option>
            <option value="email:desc">Email (Z–A)</option>
            <option value="credits:asc">Credits (low–high)</option>
            <option value="credits:desc">Credits (high–low)</option>
          </select>
        </div>
      </Form>
      <DataTable
        caption="Users"
        headers={["Name", "Email", "Role", "Plan", "Credits", "Status", "Actions"]}
        isEmpty={rows.length === 0}
        empty="No users found."
      >
        {rows.map((u) => (
          <tr key={u.id} data-testid="user-row">
            <Td className="font-medium">{u.fullName}</Td>
            <Td>{u.email}</Td>
            <Td>
              <StatusBadge value={u.role} />
            </Td>
            <Td>
              <StatusBadge value={u.plan} />
            </Td>
            <Td className="tabular-nums">{u.credits.toLocaleString("en-US")}</Td>
            <Td>
              <StatusBadge value={u.status} />
            </Td>
            <Td>
              <div className="flex flex-wrap gap-3">
                <Link
                  to={listHref(query, { edit: u.id })}
                  className="text-sm font-semibold text-brand-700 hover:underline"
                  aria-label={`Edit ${u.fullName}`}
                >
                  Edit
                </Link>
                <Link
                  to={`/admin/users/${u.id}/payments`}
                  className="text-sm font-semibold text-brand-700 hover:underline"
                  aria-label={`Payments and refunds of ${u.fullName}`}
                >
                  Payments
                </Link>
                {u.status === "Banned" ? (
                  <ModerationButton intent="unban" userId={u.id} label="Unban" ariaLabel={`Unban ${u.fullName}`} />
                ) : (
                  <ModerationButton
                    intent="ban"
                    userId={u.id}
                    label="Ban"
                    ariaLabel={`Ban ${u.fullName}`}
                    danger
                    confirmText={ADMIN_MESSAGES.banConfirm(u.fullName)}
                  />
                )}
                <ModerationButton
                  intent="signout"
                  userId={u.id}
                  label="Sign out everywhere"
                  ariaLabel={`Sign out ${u.fullName} everywhere`}
                />
              </div>
            </Td>
          </tr>
        ))}
      </DataTable>
      {/* Column sort links for keyboard and no-JS users. */}
      <p className="mt-3 flex flex-wrap gap-4 text-sm text-slate-600">
        <span>Sort by:</span>
        <SortHeader query={query} column="full_name" label="Name" />
        <SortHeader query={query} column="email" label="Email" />
        <SortHeader query={query} column="credits" label="Credits" />
      </p>
      <Pagination
        page={page}
        pages={pages}
        total={total}
        pageSize={ADMIN_PAGE_SIZE}
        href={(p) => listHref(query, { page: p })}
      />
      {adding && (
        <UserModal
          mode="add"
          user={null}
          formKey={formKey}
          closeHref={closeHref}
          error={actionData?.intent === "add" ? actionData.error : null}
        />
      )}
      {editing && (
        <UserModal
          mode="edit"
          user={editing}
          team={team}
          formKey={formKey}
          closeHref={closeHref}
          error={actionData?.intent === "edit" ? actionData.error : null}
        />
      )}
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Users | Admin | ClipCut" }];

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
