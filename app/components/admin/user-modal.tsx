import { Form, Link, useNavigation } from "@remix-run/react";
import type { TeamOfUser } from "~/domain/teams";
import { NEW_USER_CREDITS } from "~/domain/credits";
import { PLAN_IDS } from "~/domain/plans";

/** The modal's Role and Plan (ids "u-…": the filter form has a Role and a Plan too). */
function ModalSelect({
  name,
  label,
  options,
  value,
}: {
  name: string;
  label: string;
  options: readonly string[];
  value: string;
}) {
  return (
    <div>
      <label htmlFor={`u-${name}`} className="label">
        {label}
      </label>
      <select id={`u-${name}`} name={name} defaultValue={value} className="input">
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

/** Add or edit a user: a dialog over the list, closed by a link back to it (works without JavaScript). */
export function UserModal({
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
          {/* The balance this form shows: the ledger sets a new one only if it is still this (compare-and-set). */}
          {user && <input type="hidden" name="shownCredits" value={user.credits} />}
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
            <ModalSelect name="role" label="Role" options={["user", "admin"]} value={user?.role ?? "user"} />
            <ModalSelect name="plan" label="Plan" options={PLAN_IDS} value={plan} />
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
              Needed for role, plan and credit changes, once every 10 minutes.
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
