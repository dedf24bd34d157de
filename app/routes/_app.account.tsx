import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useFetcher, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { PresetsList } from "~/components/account/presets-list";
import { SessionsList } from "~/components/account/sessions-list";
import { Field } from "~/components/field";
import { PasswordField } from "~/components/password-field";
import { getDb } from "~/db/client.server";
import { deletePreset, listPresets } from "~/db/presets.server";
import { saveFullName, saveLowCreditAlerts } from "~/db/users.server";
import { passwordProblem } from "~/domain/password-policy";
import { PRESETS_PLAN_MESSAGE } from "~/domain/presets";
import { setPassword } from "~/services/accounts.server";
import { publishAdminEvent } from "~/services/admin-events.server";
import { audit } from "~/services/audit.server";
import { forgetUser, requireUser } from "~/services/auth.server";
import { verifyPassword } from "~/services/password.server";
import { beginPasswordAttempt } from "~/services/password-attempts.server";
import { clientIp, retryMessage } from "~/services/rate-limit.server";
import { signedInSessions } from "~/services/session-list.server";
import { readForm } from "~/utils/forms";

const PROFILE_SAVED = "Profile information saved successfully!";
const PROFILE_FAILED = "Failed to update profile. Please try again.";
const PASSWORD_SAVE_FAILED = "Error: Your password could not be saved. Please try again.";

const profileSchema = z.object({ intent: z.literal("profile"), fullName: z.string().trim().min(1).max(100) });
const passwordSchema = z.object({
  intent: z.literal("password"),
  currentPassword: z.string().max(1024).optional(),
  newPassword: z.string().max(1024),
  confirmPassword: z.string().max(1024),
});
const alertsSchema = z.object({ intent: z.literal("alerts"), lowCreditAlerts: z.enum(["on", "off"]) });
const deletePresetSchema = z.object({ intent: z.literal("deletePreset"), presetId: z.string().uuid() });
const actionSchema = z.discriminatedUnion("intent", [profileSchema, passwordSchema, alertsSchema, deletePresetSchema]);

type Result = { intent: string; ok: boolean; message: string };

/** A save the database refused: logged here, answered with the form's own words (no query text to the client). */
function logSaveFailure(what: string, error: unknown) {
  console.error(JSON.stringify({ level: "error", msg: `${what} save failed`, error: String(error) }));
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const db = getDb(context.cloudflare.env.DB);
  return {
    presets: user.standing.applied.presets ? await listPresets(db, user.id) : null,
    fullName: user.fullName,
    email: user.email,
    hasPassword: user.passwordHash !== null,
    lowCreditAlerts: user.lowCreditAlerts,
    sessions: await signedInSessions(db, user),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const db = getDb(context.cloudflare.env.DB);
  const fields = await readForm(request);
  const parsed = actionSchema.safeParse(fields);
  if (!parsed.success) {
    // Answer in the words of the form that was sent.
    const intent = fields.intent ?? "unknown";
    const message = intent === "password" ? "Error: The password could not be read. Please try again." : PROFILE_FAILED;
    return data<Result>({ intent, ok: false, message }, { status: 400 });
  }
  const input = parsed.data;
  if (input.intent === "deletePreset") {
    // The same gate as API v1: below Advanced nothing is touched.
    if (!user.standing.applied.presets) {
      return data<Result>({ intent: "deletePreset", ok: false, message: PRESETS_PLAN_MESSAGE }, { status: 403 });
    }
    const deleted = await deletePreset(db, user.id, input.presetId);
    return data<Result>(
      { intent: "deletePreset", ok: deleted, message: deleted ? "Preset deleted." : "No such preset." },
      { status: deleted ? 200 : 404 },
    );
  }
  if (input.intent === "profile") {
    try {
      await saveFullName(db, user.id, input.fullName);
    } catch (error) {
      logSaveFailure("profile", error);
      return data<Result>({ intent: "profile", ok: false, message: PROFILE_FAILED }, { status: 500 });
    }
    forgetUser(context);
    await publishAdminEvent(context.cloudflare.env, "users");
    return data<Result>({ intent: "profile", ok: true, message: PROFILE_SAVED });
  }
  if (input.intent === "alerts") {
    await saveLowCreditAlerts(db, user.id, input.lowCreditAlerts === "on");
    forgetUser(context);
    return data<Result>({ intent: "alerts", ok: true, message: "Notification preference saved." });
  }
  const fail = (message: string) => data<Result>({ intent: "password", ok: false, message }, { status: 400 });
  if (!input.newPassword) return fail("Password cannot be empty.");
  if (input.newPassword !== input.confirmPassword) return fail("Passwords do not match.");
  if (user.passwordHash) {
    // The same throttle as sign-in: a stolen session cannot be used to guess the password.
    const attempt = await beginPasswordAttempt(context.cloudflare.env.DB, {
      ip: clientIp(request),
      account: user.email,
    });
    if (!attempt.ok) {
      return data<Result>(
        { intent: "password", ok: false, message: `Error: ${retryMessage(attempt.retryAfterSeconds)}` },
        { status: 429, headers: { "Retry-After": String(attempt.retryAfterSeconds) } },
      );
    }
    if (!(await verifyPassword(input.currentPassword ?? "", user.passwordHash))) {
      return fail("Error: Current password is incorrect.");
    }
    await attempt.succeeded();
  }
  const problem = passwordProblem(input.newPassword, { email: user.email });
  if (problem) return fail(`Error: ${problem}`);
  // Every other session and extension token ends; this browser stays signed in.
  try {
    await setPassword(context.cloudflare.env, user.id, input.newPassword, user.sessionId);
  } catch (error) {
    logSaveFailure("password", error);
    return data<Result>({ intent: "password", ok: false, message: PASSWORD_SAVE_FAILED }, { status: 500 });
  }
  forgetUser(context);
  await audit(db, { action: "auth.password_changed", actorId: user.id, subjectId: user.id, ip: clientIp(request) });
  return data<Result>({ intent: "password", ok: true, message: "Password updated successfully!" });
}

function Message({ result }: { result: Result | undefined }) {
  if (!result) return null;
  return (
    <p className={result.ok ? "alert-success" : "alert-error"} role={result.ok ? "status" : "alert"}>
      {result.message}
    </p>
  );
}

export default function Account() {
  const account = useLoaderData<typeof loader>();
  const profile = useFetcher<typeof action>({ key: "profile" });
  const password = useFetcher<typeof action>({ key: "password" });
  const alerts = useFetcher<typeof action>({ key: "alerts" });
  // Without JavaScript the forms post the page itself: each form shows the answer to its own intent.
  const posted = useActionData<typeof action>();
  const resultOf = (intent: string, fetched: Result | undefined) =>
    fetched ?? (posted?.intent === intent ? posted : undefined);
  const profileResult = resultOf("profile", profile.data);
  const passwordResult = resultOf("password", password.data);
  const alertsResult = resultOf("alerts", alerts.data);
  const alertsOn =
    alerts.formData?.get("lowCreditAlerts") !== undefined
      ? alerts.formData.get("lowCreditAlerts") === "on"
      : account.lowCreditAlerts;
  return (
    <div className="space-y-8">
      <h1 className="text-2xl font-bold tracking-tight">My Account</h1>

      <section className="card" aria-labelledby="profile-title">
        <h2 id="profile-title" className="text-lg font-semibold">
          Profile information
        </h2>
        <profile.Form method="post" className="mt-5 max-w-lg space-y-4">
          <input type="hidden" name="intent" value="profile" />
          <Message result={profileResult} />
          <Field name="fullName" label="Full name" defaultValue={account.fullName} autoComplete="name" required />
          <Field
            name="email"
            label="Email"
            defaultValue={account.email}
            readOnly
            aria-readonly="true"
            hint="Your email address cannot be changed."
          />
          <button type="submit" className="btn-primary" disabled={profile.state !== "idle"}>
            {profile.state !== "idle" ? "Saving..." : "Save changes"}
          </button>
        </profile.Form>
      </section>

      <section className="card" aria-labelledby="password-title">
        <h2 id="password-title" className="text-lg font-semibold">
          Change password
        </h2>
        <password.Form
          method="post"
          className="mt-5 max-w-lg space-y-4"
          key={passwordResult?.ok ? "done" : "form"}
          noValidate
        >
          <input type="hidden" name="intent" value="password" />
          <Message result={passwordResult} />
          {account.hasPassword && (
            <PasswordField name="currentPassword" label="Current password" autoComplete="current-password" />
          )}
          <PasswordField name="newPassword" label="New password" autoComplete="new-password" />
          <PasswordField name="confirmPassword" label="Confirm new password" autoComplete="new-password" />
          <button type="submit" className="btn-primary" disabled={password.state !== "idle"}>
            {password.state !== "idle" ? "Updating..." : "Update password"}
          </button>
        </password.Form>
      </section>

      <PresetsList presets={account.presets} />

      <SessionsList sessions={account.sessions} />

      <section className="card" aria-labelledby="notifications-title">
        <h2 id="notifications-title" className="text-lg font-semibold">
          Notifications
        </h2>
        {alertsResult && (
          <div className="mt-4">
            <Message result={alertsResult} />
          </div>
        )}
        <alerts.Form method="post" className="mt-4 flex flex-wrap items-center justify-between gap-4">
          <input type="hidden" name="intent" value="alerts" />
          <input type="hidden" name="lowCreditAlerts" value={alertsOn ? "off" : "on"} />
          <div>
            <p id="low-credit-label" className="font-medium">
              Low-credit notifications
            </p>
            <p className="text-sm text-slate-600">Tell me when my credit balance is running low.</p>
          </div>
          <button
            type="submit"
            role="switch"
            aria-checked={alertsOn}
            aria-labelledby="low-credit-label"
            className={`relative inline-flex h-7 w-12 flex-none rounded-full transition ${alertsOn ? "bg-brand-600" : "bg-slate-300"}`}
          >
            <span
              aria-hidden="true"
              className={`absolute top-1 h-5 w-5 rounded-full bg-white shadow transition ${alertsOn ? "left-6" : "left-1"}`}
            />
          </button>
        </alerts.Form>
      </section>

      <section className="card" aria-labelledby="data-title">
        <h2 id="data-title" className="text-lg font-semibold">
          Your data
        </h2>
        <p className="mt-2 max-w-2xl text-sm text-slate-600">
          One file (JSON) with your profile, clips, credit history, invoices and payments, signed-in sessions and team.
        </p>
        {/* A download, not a page: the browser saves the file, with or without JavaScript. */}
        <a href="/account/export" download className="btn-secondary mt-4" data-testid="download-data">
          Download my data
        </a>
      </section>

      <section className="card border-red-200" aria-labelledby="delete-title">
        <h2 id="delete-title" className="text-lg font-semibold">
          Delete account
        </h2>
        <p className="mt-2 max-w-2xl text-sm text-slate-600">
          Deleting your account ends your subscription at once, cancels your credits, takes you out of your team and
          erases your profile and clips. The next page says exactly what happens to yours before you confirm.
        </p>
        <Link to="/account/delete" className="btn mt-4 border border-red-300 bg-white text-red-700 hover:bg-red-50">
          Delete my account…
        </Link>
      </section>
    </div>
  );
}

export const meta: MetaFunction = () => [
  { title: "My Account | ClipCut" },
  { name: "description", content: "Your ClipCut profile, password, notifications, your data and your account." },
];
