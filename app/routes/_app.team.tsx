import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { Field } from "~/components/field";
import { getDb } from "~/db/client.server";
import { readCredits } from "~/db/credits.server";
import { membershipOf, pendingInvitations, teamMembersOf } from "~/db/teams.server";
import { formatShortDate } from "~/domain/greeting";
import { effectivePlan, PLANS } from "~/domain/plans";
import { inviteEmailSchema, seatsLeft, SEAT_LIMIT_MESSAGE, TEAM_SEATS, teamActive } from "~/domain/teams";
import { requireUser } from "~/services/auth.server";
import { clientIp } from "~/services/rate-limit.server";
import { invite, leave, periodSince, removeMember, resend, revoke, type TeamResult } from "~/services/teams.server";
import { readForm } from "~/utils/forms";

export const meta: MetaFunction = () => [{ title: "Team | ClipCut" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const db = getDb(context.cloudflare.env.DB);
  const membership = await membershipOf(db, user.id);
  const timeZone = user.timeZone ?? "UTC";
  if (membership?.role === "member") {
    const since = periodSince(membership.owner.periodStart);
    const [people, credits] = await Promise.all([
      teamMembersOf(db, membership.ownerId, since),
      readCredits(db, membership.ownerId),
    ]);
    return {
      view: "member" as const,
      timeZone,
      active: teamActive(membership.owner.plan) && !membership.owner.banned,
      owner: { fullName: membership.owner.fullName, email: membership.owner.email },
      people: people.map((p) => ({ ...p, joinedAt: p.joinedAt.toISOString() })),
      balance: credits?.balance ?? 0,
      me: user.id,
    };
  }
  if (!teamActive(user.plan)) return { view: "upsell" as const, plan: PLANS[effectivePlan(user.plan)].name };
  const since = periodSince(user.planPeriodStart);
  const [people, invitations] = await Promise.all([teamMembersOf(db, user.id, since), pendingInvitations(db, user.id)]);
  const members = people.length || 1; // before the first invitation the owner has no row yet
  return {
    view: "owner" as const,
    timeZone,
    people: people.length
      ? people.map((p) => ({ ...p, joinedAt: p.joinedAt.toISOString() }))
      : [
          {
            id: user.id,
            fullName: user.fullName,
            email: user.email,
            role: "owner" as const,
            joinedAt: null,
            clips: 0,
            credits: 0,
          },
        ],
    invitations: invitations.map((i) => ({ ...i, expiresAt: i.expiresAt.toISOString() })),
    seatsLeft: seatsLeft(members, invitations.length),
    me: user.id,
  };
}

const actionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("invite"), email: inviteEmailSchema }),
  z.object({ intent: z.literal("resend"), invitationId: z.string().uuid() }),
  z.object({ intent: z.literal("revoke"), invitationId: z.string().uuid() }),
  z.object({ intent: z.literal("remove"), memberId: z.string().uuid() }),
  z.object({ intent: z.literal("leave") }),
]);

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const env = context.cloudflare.env;
  const ctx = { env, db: getDb(env.DB), origin: new URL(request.url).origin, ip: clientIp(request) };
  const parsed = actionSchema.safeParse(await readForm(request));
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? "The form could not be read.";
    return data<TeamResult>({ ok: false, status: 400, message }, { status: 400 });
  }
  const input = parsed.data;
  let result: TeamResult;
  if (input.intent === "invite") result = await invite(ctx, user, input.email);
  else if (input.intent === "resend") result = await resend(ctx, user, input.invitationId);
  else if (input.intent === "revoke") result = await revoke(ctx, user.id, input.invitationId);
  else if (input.intent === "remove") result = await removeMember(ctx, user.id, input.memberId);
  else result = await leave(ctx, user.id);
  return data(result, { status: result.ok ? 200 : result.status });
}

function Notice({ result }: { result: TeamResult | undefined }) {
  if (!result) return null;
  return (
    <p
      role={result.ok ? "status" : "alert"}
      className={`rounded-lg px-4 py-3 text-sm ${result.ok ? "bg-green-50 text-green-800" : "bg-red-50 text-red-800"}`}
    >
      {result.message}
    </p>
  );
}

type Person = {
  id: string;
  fullName: string;
  email: string;
  role: string;
  joinedAt: string | null;
  clips: number;
  credits: number;
};

function PeopleTable({
  people,
  timeZone,
  actions,
}: {
  people: Person[];
  timeZone: string;
  actions?: (p: Person) => React.ReactNode;
}) {
  return (
    <>
      {/* Small screens: one card per person (a five-column table does not fit 375 px). */}
      <ul className="divide-y divide-slate-100 sm:hidden">
        {people.map((p) => (
          <li key={p.id} className="space-y-1 px-6 py-3 text-sm">
            <p className="font-medium">
              {p.fullName}
              {p.role === "owner" && (
                <span className="ml-2 rounded bg-brand-50 px-2 py-0.5 text-xs text-brand-700">Owner</span>
              )}
            </p>
            <p className="break-all text-slate-600">{p.email}</p>
            <p className="text-slate-600">
              Joined {p.joinedAt ? formatShortDate(new Date(p.joinedAt), timeZone) : "—"} · {p.clips}{" "}
              {p.clips === 1 ? "clip" : "clips"} · {p.credits} credits this period
            </p>
            {actions?.(p)}
          </li>
        ))}
      </ul>
      <div className="hidden overflow-x-auto sm:block">
        <table className="w-full min-w-[560px] text-left text-sm">
          <caption className="sr-only">Team members</caption>
          <thead className="bg-slate-50">
            <tr>
              <th scope="col" className="px-4 py-3 font-semibold">
                Name
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                E-mail
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                Joined
              </th>
              <th scope="col" className="px-4 py-3 text-right font-semibold">
                Clips this period
              </th>
              <th scope="col" className="px-4 py-3 text-right font-semibold">
                Credits used
              </th>
              {actions && (
                <th scope="col" className="px-4 py-3 font-semibold">
                  <span className="sr-only">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {people.map((p) => (
              <tr key={p.id}>
                <td className="px-4 py-3">
                  {p.fullName}
                  {p.role === "owner" && (
                    <span className="ml-2 rounded bg-brand-50 px-2 py-0.5 text-xs text-brand-700">Owner</span>
                  )}
                </td>
                <td className="px-4 py-3 break-all">{p.email}</td>
                <td className="px-4 py-3">{p.joinedAt ? formatShortDate(new Date(p.joinedAt), timeZone) : "—"}</td>
                <td className="px-4 py-3 text-right">{p.clips}</td>
                <td className="px-4 py-3 text-right">{p.credits}</td>
                {actions && <td className="px-4 py-3">{actions(p)}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

export default function TeamPage() {
  const loaded = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  return (
    <div className="space-y-8">
      <h1 className="text-2xl font-bold tracking-tight">Team</h1>
      <Notice result={result} />
      {loaded.view === "upsell" && (
        <section className="card" aria-labelledby="upsell-title">
          <h2 id="upsell-title" className="text-lg font-semibold">
            Teams are part of Pro
          </h2>
          <p className="mt-2 text-slate-600">
            You are on {loaded.plan}. On Pro, up to {TEAM_SEATS} people, you included, clip on one plan and one shared
            credit balance.
          </p>
          <Link to="/billing/plan" className="btn-primary mt-5">
            See plans
          </Link>
        </section>
      )}
      {loaded.view === "member" && (
        <>
          {!loaded.active && (
            <p role="alert" className="rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-900">
              This team is suspended: its owner is no longer on Pro. Your clips are paid from your own plan and credits
              until the owner is on Pro again.
            </p>
          )}
          <section className="card" aria-labelledby="team-title">
            <h2 id="team-title" className="text-lg font-semibold">
              {loaded.owner.fullName}&apos;s team
            </h2>
            <p className="mt-1 text-sm text-slate-600">
              Owner: {loaded.owner.fullName} ({loaded.owner.email}). Shared balance:{" "}
              <strong data-testid="team-balance">{loaded.balance.toLocaleString("en-US")}</strong> credits.
            </p>
          </section>
          <section className="card overflow-hidden p-0" aria-labelledby="people-title">
            <h2 id="people-title" className="px-6 pt-6 text-lg font-semibold">
              Members
            </h2>
            <div className="mt-4">
              <PeopleTable people={loaded.people} timeZone={loaded.timeZone} />
            </div>
          </section>
          <Form method="post">
            <input type="hidden" name="intent" value="leave" />
            <button type="submit" className="btn-secondary" disabled={busy}>
              Leave team
            </button>
          </Form>
        </>
      )}
      {loaded.view === "owner" && (
        <>
          <section className="card overflow-hidden p-0" aria-labelledby="people-title">
            <h2 id="people-title" className="px-6 pt-6 text-lg font-semibold">
              Members
            </h2>
            <p className="px-6 text-sm text-slate-600">
              Everyone clips on your Pro plan and your credits. {TEAM_SEATS} people at most, you included.
            </p>
            <div className="mt-4">
              <PeopleTable
                people={loaded.people}
                timeZone={loaded.timeZone}
                actions={(p) =>
                  p.role === "member" ? (
                    <details>
                      <summary className="cursor-pointer text-red-700">
                        Remove<span className="sr-only"> {p.fullName}</span>
                      </summary>
                      <Form method="post" className="mt-2 space-y-2">
                        <input type="hidden" name="intent" value="remove" />
                        <input type="hidden" name="memberId" value={p.id} />
                        <p className="text-xs text-slate-600">{p.fullName} goes back to their own plan and credits.</p>
                        <button type="submit" className="btn-secondary text-red-700" disabled={busy}>
                          Yes, remove {p.fullName}
                        </button>
                      </Form>
                    </details>
                  ) : null
                }
              />
            </div>
          </section>
          <section className="card" aria-labelledby="invite-title">
            <h2 id="invite-title" className="text-lg font-semibold">
              Invite someone
            </h2>
            <p className="mt-1 text-sm text-slate-600">
              {loaded.seatsLeft > 0
                ? `${loaded.seatsLeft} seat${loaded.seatsLeft === 1 ? "" : "s"} left.`
                : SEAT_LIMIT_MESSAGE}
            </p>
            <Form method="post" className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end">
              <input type="hidden" name="intent" value="invite" />
              <div className="flex-1">
                <Field name="email" label="E-mail" type="email" autoComplete="off" required />
              </div>
              <button type="submit" className="btn-primary" disabled={busy}>
                Send invitation
              </button>
            </Form>
          </section>
          {loaded.invitations.length > 0 && (
            <section className="card" aria-labelledby="pending-title">
              <h2 id="pending-title" className="text-lg font-semibold">
                Pending invitations
              </h2>
              <ul className="mt-3 divide-y divide-slate-100">
                {loaded.invitations.map((i) => (
                  <li key={i.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
                    <span className="break-all">
                      {i.email}{" "}
                      <span className="text-xs text-slate-500">
                        (expires {formatShortDate(new Date(i.expiresAt), loaded.timeZone)})
                      </span>
                    </span>
                    <span className="flex gap-2">
                      <Form method="post">
                        <input type="hidden" name="intent" value="resend" />
                        <input type="hidden" name="invitationId" value={i.id} />
                        <button type="submit" className="btn-secondary" disabled={busy}>
                          Resend<span className="sr-only"> to {i.email}</span>
                        </button>
                      </Form>
                      <Form method="post">
                        <input type="hidden" name="intent" value="revoke" />
                        <input type="hidden" name="invitationId" value={i.id} />
                        <button type="submit" className="btn-secondary" disabled={busy}>
                          Revoke<span className="sr-only"> {i.email}</span>
                        </button>
                      </Form>
                    </span>
                  </li>
                ))}
              </ul>
            </section>
          )}
        </>
      )}
    </div>
  );
}
