import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation, useOutletContext } from "@remix-run/react";
import { useEffect, useState } from "react";
import { z } from "zod";
import { AdminErrorBoundary } from "~/components/admin/error";
import type { AdminOutletContext } from "~/components/admin/live";
import { PageHeader, Panel } from "~/components/admin/ui";
import { isMissingTable, readSettings } from "~/db/admin.server";
import { getDb } from "~/db/client.server";
import { ADMIN_MESSAGES, COPY_CONFIRM_MS } from "~/domain/admin";
import { CHROME_EXTENSION_ID, DEFAULT_EXTENSION_ID, EXTENSION_ID_SETTING } from "~/domain/extension";
import { ACCOUNT_DETAILS_SETTING, saveAccountDetails, saveExtensionId } from "~/services/admin-settings.server";
import { requireAdmin } from "~/services/auth.server";
import { deployedExtensionIds } from "~/services/settings.server";
import { requireStepUp } from "~/services/step-up.server";
import { clientIp } from "~/services/rate-limit.server";
import { readForm } from "~/utils/forms";

const text = (label: string) => z.string().trim().min(1, `${label} is required.`).max(200, `${label} is too long.`);
const accountSchema = z.object({
  companyName: text("Company Name"),
  paymentMethod: text("Payment Method"),
  currency: z.enum(["USD"]),
  addressName: text("Address Name"),
  country: z.enum(["US"]),
  city: text("City"),
  address: text("Address"),
  postalCode: text("Postal Code"),
});
const actionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("extension"),
    extensionId: z.string().trim().regex(CHROME_EXTENSION_ID, "A Chrome extension ID is 32 letters from a to p."),
    // The admin's own password (step-up): this id decides where every user's fresh token goes.
    currentPassword: z.string().max(1024).optional(),
  }),
  accountSchema.extend({ intent: z.literal("account") }),
]);

const SETTINGS_TABLE_SQL = `CREATE TABLE IF NOT EXISTS settings (
  key TEXT PRIMARY KEY NOT NULL,
  value TEXT NOT NULL,
  updated_at INTEGER
);`;

const TABS = [
  "General",
  "Plan & Pricing",
  "My Account",
  "Payment & Billing",
  "Tax & Duties",
  "Link Account",
  "Time & Language",
  "Password",
  "Notifications",
];

type AccountDetails = Partial<z.infer<typeof accountSchema>>;

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  const db = getDb(context.cloudflare.env.DB);
  try {
    const stored = await readSettings(db, [EXTENSION_ID_SETTING, ACCOUNT_DETAILS_SETTING]);
    let account: AccountDetails = {};
    try {
      account = accountSchema.partial().parse(JSON.parse(stored.get(ACCOUNT_DETAILS_SETTING) ?? "{}"));
    } catch {
      account = {};
    }
    return {
      setupRequired: false,
      loadError: null,
      extensionId: stored.get(EXTENSION_ID_SETTING) ?? "",
      defaultExtensionId: DEFAULT_EXTENSION_ID,
      allowedIds: deployedExtensionIds(context.cloudflare.env),
      account,
    };
  } catch (error) {
    if (!isMissingTable(error))
      console.error(JSON.stringify({ level: "error", msg: "settings load", error: String(error) }));
    return {
      setupRequired: isMissingTable(error),
      loadError: isMissingTable(error) ? null : ADMIN_MESSAGES.extensionLoadFailed,
      extensionId: "",
      defaultExtensionId: DEFAULT_EXTENSION_ID,
      allowedIds: deployedExtensionIds(context.cloudflare.env),
      account: {} as AccountDetails,
    };
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const parsed = actionSchema.safeParse(await readForm(request));
  if (!parsed.success) {
    return data(
      { intent: null, ok: false, message: parsed.error.issues[0]?.message ?? "Invalid input." },
      { status: 400 },
    );
  }
  const env = context.cloudflare.env;
  const ctx = { env, db: getDb(env.DB), adminId: admin.id, ip: clientIp(request) };
  const input = parsed.data;
  if (input.intent === "extension") {
    if (!deployedExtensionIds(env).includes(input.extensionId)) {
      const message = "That extension ID is not allowed on this deployment (EXTENSION_IDS in wrangler.toml).";
      return data({ intent: "extension", ok: false, message }, { status: 400 });
    }
    const stepUp = await requireStepUp(env, request, admin, input.currentPassword);
    if (!stepUp.ok) return data({ intent: "extension", ok: false, message: stepUp.message }, { status: stepUp.status });
  }
  try {
    if (input.intent === "extension") {
      await saveExtensionId(ctx, input.extensionId);
      return { intent: "extension", ok: true, message: ADMIN_MESSAGES.extensionSaved };
    }
    const { intent: _intent, ...details } = input;
    await saveAccountDetails(ctx, details);
    return { intent: "account", ok: true, message: "Account details saved." };
  } catch (error) {
    console.error(JSON.stringify({ level: "error", msg: "settings save", error: String(error) }));
    const reason = isMissingTable(error) ? "the settings table does not exist" : "the database refused the change";
    return data(
      {
        intent: input.intent,
        ok: false,
        message:
          input.intent === "extension"
            ? ADMIN_MESSAGES.extensionSaveFailed(reason)
            : `Failed to save account details: ${reason}.`,
      },
      { status: 500 },
    );
  }
}

function CopyButton({ text: value }: { text: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPY_CONFIRM_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <button
      type="button"
      className="btn-secondary"
      onClick={() =>
        void navigator.clipboard.writeText(value).then(
          () => setCopied(true),
          () => setCopied(false),
        )
      }
    >
      <span aria-live="polite">{copied ? "Copied!" : "Copy"}</span>
    </button>
  );
}

function Input({ id, label, defaultValue }: { id: string; label: string; defaultValue?: string }) {
  return (
    <div>
      <label htmlFor={id} className="label">
        {label}{" "}
        <span aria-hidden="true" className="text-red-600">
          *
        </span>
      </label>
      <input id={id} name={id} required defaultValue={defaultValue ?? ""} className="input" />
    </div>
  );
}

export default function AdminSettings() {
  const loaded = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const [tab, setTab] = useState(TABS[0]);
  // Another admin's change shows here at once (pushed through the layout's AdminFeed socket).
  const liveId = useOutletContext<AdminOutletContext>()?.liveExtensionId ?? null;
  const savingExtension = navigation.formData?.get("intent") === "extension";
  const currentId = liveId ?? loaded.extensionId;

  if (loaded.setupRequired) {
    return (
      <div>
        <PageHeader title="Settings" />
        <div role="alert" className="rounded-xl border border-amber-300 bg-amber-50 p-6">
          <h2 className="text-lg font-semibold text-amber-900">Database Setup Required</h2>
          <p className="mt-2 text-sm text-amber-900">
            The settings table does not exist yet. Run this script against the database, then refresh this page.
          </p>
          <pre className="mt-4 overflow-x-auto rounded-lg bg-slate-900 p-4 text-xs text-slate-100">
            {SETTINGS_TABLE_SQL}
          </pre>
          <div className="mt-4 flex gap-2">
            <CopyButton text={SETTINGS_TABLE_SQL} />
            <a href="/admin/settings" className="btn-ghost">
              Refresh
            </a>
          </div>
        </div>
      </div>
    );
  }

  return (
    <div>
      <PageHeader
        title="Settings"
        actions={
          <>
            <button type="button" className="btn-secondary">
              Cancel
            </button>
            <button type="button" className="btn-primary">
              Save Change
            </button>
          </>
        }
      />
      {loaded.loadError && (
        <p role="alert" className="alert-error mb-4">
          {loaded.loadError}
        </p>
      )}
      <div className="grid gap-6 lg:grid-cols-[14rem_1fr]">
        <nav aria-label="Settings sections">
          <ul className="flex gap-1 overflow-x-auto lg:flex-col">
            {TABS.map((t) => (
              <li key={t}>
                <button
                  type="button"
                  aria-pressed={t === tab}
                  onClick={() => setTab(t)}
                  className={`w-full whitespace-nowrap rounded-lg px-3 py-2 text-left text-sm ${
                    t === tab ? "bg-brand-50 font-semibold text-brand-700" : "text-slate-700 hover:bg-slate-100"
                  }`}
                >
                  {t}
                </button>
              </li>
            ))}
          </ul>
        </nav>
        <div className="space-y-6">
          <Panel title="Extension Configuration">
            <Form method="post" className="space-y-3">
              <input type="hidden" name="intent" value="extension" />
              <label htmlFor="extensionId" className="label">
                Chrome Extension ID
              </label>
              <input
                id="extensionId"
                name="extensionId"
                key={currentId}
                defaultValue={currentId}
                placeholder={loaded.defaultExtensionId}
                className="input font-mono"
                required
                aria-describedby="extensionId-help"
              />
              <p id="extensionId-help" className="text-xs text-slate-600">
                In use now:{" "}
                <span data-testid="extension-id-in-use">{currentId || `${loaded.defaultExtensionId} (default)`}</span>.
                Allowed on this deployment: {loaded.allowedIds.join(", ") || "none (set EXTENSION_IDS)"}.
              </p>
              <label htmlFor="extension-password" className="label">
                Your password
              </label>
              <input
                id="extension-password"
                name="currentPassword"
                type="password"
                autoComplete="current-password"
                className="input"
                aria-describedby="extension-password-help"
              />
              <p id="extension-password-help" className="text-xs text-slate-600">
                Needed to change the extension ID, once every 10 minutes.
              </p>
              {result?.intent !== "account" && result?.message && (
                <p role={result.ok ? "status" : "alert"} className={result.ok ? "alert-success" : "alert-error"}>
                  {result.message}
                </p>
              )}
              <button type="submit" className="btn-primary" disabled={savingExtension}>
                {savingExtension ? "Saving..." : "Save Changes"}
              </button>
            </Form>
          </Panel>
          <Panel title="Account Details">
            <Form method="post" className="grid gap-4 sm:grid-cols-2">
              <input type="hidden" name="intent" value="account" />
              <Input id="companyName" label="Company Name" defaultValue={loaded.account.companyName} />
              <Input id="paymentMethod" label="Payment Method" defaultValue={loaded.account.paymentMethod} />
              <div>
                <label htmlFor="currency" className="label">
                  Currency{" "}
                  <span aria-hidden="true" className="text-red-600">
                    *
                  </span>
                </label>
                <select id="currency" name="currency" className="input" defaultValue="USD">
                  <option value="USD">US Dollar</option>
                </select>
              </div>
              <Input id="addressName" label="Address Name" defaultValue={loaded.account.addressName} />
              <div>
                <label htmlFor="country" className="label">
                  Country or Region{" "}
                  <span aria-hidden="true" className="text-red-600">
                    *
                  </span>
                </label>
                <select id="country" name="country" className="input" defaultValue="US">
                  <option value="US">United States</option>
                </select>
              </div>
              <Input id="city" label="City" defaultValue={loaded.account.city} />
              <Input id="address" label="Address" defaultValue={loaded.account.address} />
              <Input id="postalCode" label="Postal Code" defaultValue={loaded.account.postalCode} />
              {result?.intent === "account" && (
                <p
                  role={result.ok ? "status" : "alert"}
                  className={`sm:col-span-2 ${result.ok ? "alert-success" : "alert-error"}`}
                >
                  {result.message}
                </p>
              )}
              <div className="sm:col-span-2">
                <button type="submit" className="btn-primary">
                  Save Account Details
                </button>
              </div>
            </Form>
          </Panel>
        </div>
      </div>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Settings | Admin | ClipCut" }];

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
