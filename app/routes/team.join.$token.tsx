import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { AuthCard, AuthError } from "~/components/auth-ui";
import { getDb } from "~/db/client.server";
import { INVITATION_INVALID_MESSAGE, TEAM_SEATS, WRONG_ACCOUNT_MESSAGE } from "~/domain/teams";
import { getOptionalUser, requireUser } from "~/services/auth.server";
import { clientIp } from "~/services/rate-limit.server";
import { invitationForToken, join } from "~/services/teams.server";

export { formPageHeaders as headers } from "~/services/cache.server";
export const meta: MetaFunction = () => [{ title: "Join a team | ClipCut" }];

const tokenSchema = z
  .string()
  .min(16)
  .max(128)
  .regex(/^[A-Za-z0-9_-]+$/);

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const token = tokenSchema.safeParse(params.token);
  const db = getDb(context.cloudflare.env.DB);
  const invitation = token.success ? await invitationForToken(db, token.data) : null;
  if (!invitation) return { invitation: null };
  const user = await getOptionalUser(request, context);
  const here = new URL(request.url).pathname;
  return {
    invitation: { ownerName: invitation.ownerName, ownerEmail: invitation.ownerEmail, email: invitation.email },
    signedIn: user ? { email: user.email, matches: user.email.toLowerCase() === invitation.email.toLowerCase() } : null,
    signInUrl: `/signin?${new URLSearchParams({ redirectTo: here })}`,
    signUpUrl: `/signup?${new URLSearchParams({ next: here, email: invitation.email })}`,
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const token = tokenSchema.safeParse(params.token);
  if (!token.success) return data({ error: INVITATION_INVALID_MESSAGE }, { status: 410 });
  const env = context.cloudflare.env;
  const ctx = { env, db: getDb(env.DB), origin: new URL(request.url).origin, ip: clientIp(request) };
  const result = await join(ctx, user, token.data);
  if (!result.ok) return data({ error: result.message }, { status: result.status });
  throw redirect("/team");
}

export default function JoinTeam() {
  const loaded = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  if (!loaded.invitation)
    return (
      <AuthCard title="Join a team">
        <AuthError message={INVITATION_INVALID_MESSAGE} />
        <p className="mt-4 text-sm text-slate-600">Ask the team&apos;s owner to send you a new invitation.</p>
      </AuthCard>
    );
  const { invitation, signedIn } = loaded;
  return (
    <AuthCard
      title="Join a team"
      subtitle={
        <>
          {invitation.ownerName} ({invitation.ownerEmail}) invites <strong>{invitation.email}</strong> to their ClipCut
          Pro team: up to {TEAM_SEATS} people clip on one Pro plan and one shared credit balance.
        </>
      }
    >
      <AuthError message={result?.error} />
      {!signedIn && (
        <div className="space-y-3 text-sm">
          <Link to={loaded.signInUrl} className="btn-primary w-full">
            Sign in to join
          </Link>
          <p className="text-slate-600">
            No account yet?{" "}
            <Link to={loaded.signUpUrl} className="font-medium text-brand-700 underline">
              Create one with {invitation.email}
            </Link>
            : confirming your e-mail brings you back here to join. The invitation stays valid for 7 days.
          </p>
        </div>
      )}
      {signedIn && !signedIn.matches && (
        <p className="alert-error" role="alert">
          {WRONG_ACCOUNT_MESSAGE} You are signed in as {signedIn.email}.
        </p>
      )}
      {signedIn?.matches && (
        <Form method="post">
          <button type="submit" className="btn-primary w-full" disabled={busy}>
            Join team
          </button>
        </Form>
      )}
    </AuthCard>
  );
}
