import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import { useLive } from "~/components/realtime";
import { requireUser } from "~/services/auth.server";
import { busyHeaders } from "~/services/ledger.server";
import { connectPlugin } from "~/services/plugin-connect.server";

const CONNECT_SAVE_FAILED = "your account could not be updated, so nothing was changed. Please try again.";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const result = await connectPlugin(context.cloudflare.env, user.id);
  if (!result.ok) {
    // The ledger's own save-failure text speaks of clips; here what failed is the connection.
    const why = result.reason === "save_failed" ? CONNECT_SAVE_FAILED : result.message;
    const message = result.reason === "user_not_found" ? "User profile not found." : `Connection failed: ${why}`;
    return data({ ok: false as const, message }, { status: result.status, headers: busyHeaders(result) });
  }
  return {
    ok: true as const,
    message: result.value.alreadyConnected
      ? "Your account is already connected!"
      : "Successfully connected! You have been awarded 1 free credit.",
  };
}

export default function PluginConnect() {
  const live = useLive();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const connected = live.plan === "Plugin";
  return (
    <div className="max-w-2xl space-y-6">
      <h1 className="text-2xl font-bold tracking-tight">Connect the ClipCut extension</h1>
      <div className="card space-y-4">
        <p className="text-slate-700">
          Connecting links your account to the ClipCut browser extension, so clips you cut on video pages use your plan
          and credits. As a thank-you, your first connection adds 1 free credit.
        </p>
        {result && (
          <p className={result.ok ? "alert-success" : "alert-error"} role={result.ok ? "status" : "alert"}>
            {result.message}
          </p>
        )}
        {connected && !result ? (
          <p className="alert-success" role="status">
            Your account is already connected!
          </p>
        ) : (
          !result?.ok && (
            <Form method="post">
              <button type="submit" className="btn-primary" disabled={busy}>
                {busy ? "Connecting..." : "Connect and get 1 free credit"}
              </button>
            </Form>
          )
        )}
      </div>
    </div>
  );
}

export const meta: MetaFunction = () => [
  { title: "Connect the extension | ClipCut" },
  { name: "description", content: "Connect your ClipCut account to the browser extension." },
];
