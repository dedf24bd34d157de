import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData, useNavigate } from "@remix-run/react";
import { z } from "zod";
import { StatusBadge } from "~/components/admin/badge";
import { AdminErrorBoundary } from "~/components/admin/error";
import { FilterForm, ListTable, Pagination, Td, type FilterField } from "~/components/list";
import { ModerationButton } from "~/components/admin/moderation-button";
import { PageHeader } from "~/components/admin/ui";
import { UserModal } from "~/components/admin/user-modal";
import { findUser, listUsers } from "~/db/admin.server";
import { getDb } from "~/db/client.server";
import { teamOfUser } from "~/db/teams.server";
import { DELETION_MESSAGES, isErasedEmail } from "~/domain/account-deletion";
import { ADMIN_MESSAGES, ADMIN_PAGE_SIZE, userList, type UserListQuery } from "~/domain/admin";
import { PLAN_IDS } from "~/domain/plans";
import { addUser, editUser } from "~/services/admin-users.server";
import { adminRightsRefusal } from "~/services/admin-rights.server";
import { requireAdmin } from "~/services/auth.server";
import { requireStepUp } from "~/services/step-up.server";
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
// The admin's own password, for role, plan and credit changes (step-up, app/services/step-up.server.ts).
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
    shownCredits: credits,
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
  deleted: "Account deleted. Its invoices, payments and credit history are kept without a name or e-mail address.",
} as const;

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  const db = getDb(context.cloudflare.env.DB);
  const params = new URL(request.url).searchParams;
  const query = userList.parse(params);
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
const listHref = (query: UserListQuery, changes: Record<string, string | number | undefined> = {}) =>
  userList.href("/admin/users", query, changes);

const FILTERS: FilterField[] = [
  { kind: "search", name: "q", label: "Search", placeholder: "Name or email", wide: true },
  { kind: "select", name: "status", label: "Status", options: ["online", "offline", "Banned"] },
  { kind: "select", name: "plan", label: "Plan", options: PLAN_IDS },
  { kind: "select", name: "role", label: "Role", options: ["user", "admin"] },
  { kind: "number", name: "min", label: "Credits min" },
  { kind: "number", name: "max", label: "Credits max" },
];

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
  // Back to the list the form was on (its query, without the dialog), with the notice in the URL.
  const back = (notice: keyof typeof NOTICES) => redirect(listHref(userList.parse(url.searchParams), { notice }));
  // Plan and credit changes are step-up checked by the ledger, on what it would change; the proof is this session's.
  const password = "currentPassword" in input ? input.currentPassword : undefined;
  const stepUp = { sessionId: admin.sessionId, prove: () => requireStepUp(env, request, admin, password) };
  const ctx = { env, db, adminId: admin.id, ip, origin: url.origin, stepUp };
  // A deleted account is kept only for its ledger and invoices: nothing more is done to it here.
  if ("userId" in input) {
    const target = await findUser(db, input.userId);
    if (target && isErasedEmail(target.email))
      return data({ error: DELETION_MESSAGES.alreadyDeleted, intent: input.intent }, { status: 409 });
  }
  // Who may act on whom, and step-up for role changes (app/domain/admin-rights.ts).
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
  // Back to the same list (query and scroll kept) with the notice in the URL: a notice held only in the action's answer
  // vanished when the live feed refreshed the list a second later.
  return back(input.intent === "ban" ? "banned" : input.intent === "unban" ? "unbanned" : "signedout");
}

export default function AdminUsers() {
  const { query, rows, total, page, pages, editing, team, adding, formKey, notice } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigate = useNavigate();
  const closeHref = listHref(query);
  const listError = actionData?.error && (actionData.intent === null || !["add", "edit"].includes(actionData.intent));
  // The export is the list as filtered and sorted, every page.
  const exportHref = `/admin/users/export?${userList.search(query, { page: undefined })}`;
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
            <Link to={listHref(query, { modal: "add" })} className="btn-primary">
              Add User
            </Link>
          </>
        }
      />
      {notice && (
        <p role="status" className="alert-success mb-4">
          {notice}
        </p>
      )}
      {listError &&
        (actionData.intent === "ban" ? (
          <div role="alert" className="alert-error mb-4">
            <p>{ADMIN_MESSAGES.banFailed(actionData.error)}</p>
            <p className="mt-2 font-semibold">Likely causes:</p>
            <ul className="mt-1 list-disc pl-5">
              {ADMIN_MESSAGES.banFailedCauses.map((cause) => (
                <li key={cause}>{cause}</li>
              ))}
            </ul>
          </div>
        ) : (
          <p role="alert" className="alert-error mb-4">
            {actionData.error}
          </p>
        ))}
      <FilterForm
        fields={FILTERS}
        values={query}
        idPrefix="f"
        resetHref="/admin/users"
        keep={{ sort: query.sort, dir: query.dir }}
        gridClass="sm:grid-cols-2 lg:grid-cols-7"
      >
        <label htmlFor="f-sort" className="ml-auto text-sm text-slate-700">
          Sort
        </label>
        <select
          id="f-sort"
          className="input w-auto"
          value={`${query.sort}:${query.dir}`}
          onChange={(e) => {
            const [sort, dir] = e.target.value.split(":");
            navigate(listHref(query, { sort, dir, page: 1 }));
          }}
        >
          <option value="full_name:asc">Name (A–Z)</option>
          <option value="full_name:desc">Name (Z–A)</option>
          <option value="email:asc">Email (A–Z)</option>
          <option value="email:desc">Email (Z–A)</option>
          <option value="credits:asc">Credits (low–high)</option>
          <option value="credits:desc">Credits (high–low)</option>
        </select>
      </FilterForm>
      <ListTable
        caption="Users"
        columns={[
          { label: "Name", sort: "full_name" },
          { label: "Email", sort: "email" },
          "Role",
          "Plan",
          { label: "Credits", sort: "credits" },
          "Status",
          "Actions",
        ]}
        sort={{ column: query.sort, dir: query.dir, href: (sort, dir) => listHref(query, { sort, dir, page: 1 }) }}
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
              <StatusBadge value={isErasedEmail(u.email) ? "Deleted" : u.status} />
            </Td>
            <Td>
              {isErasedEmail(u.email) ? (
                <Link
                  to={`/admin/users/${u.id}/payments`}
                  className="text-sm font-semibold text-brand-700 hover:underline"
                  aria-label={`Payments of deleted account ${u.id}`}
                >
                  Payments
                </Link>
              ) : (
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
                  <Link
                    to={`/admin/users/${u.id}/delete`}
                    className="text-sm font-semibold text-red-700 hover:underline"
                    aria-label={`Delete the account of ${u.fullName}`}
                  >
                    Delete
                  </Link>
                </div>
              )}
            </Td>
          </tr>
        ))}
      </ListTable>
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
