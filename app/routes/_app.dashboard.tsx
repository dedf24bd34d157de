import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Await, Link, useAsyncError, useFetcher, useLoaderData } from "@remix-run/react";
import { Suspense, useEffect, useState } from "react";
import { z } from "zod";
import { ErrorBox } from "~/components/error-box";
import { useLive, withNewClips } from "~/components/realtime";
import { TeamCard } from "~/components/team-card";
import { SkeletonRows } from "~/components/skeleton";
import { getDb } from "~/db/client.server";
import { recentClips } from "~/db/clips.server";
import { saveTimeZone } from "~/db/users.server";
import { firstName, formatShortDate, greetingFor } from "~/domain/greeting";
import { effectivePlan, PLANS } from "~/domain/plans";
import { RECENT_CLIPS_FAILED_MESSAGE } from "~/domain/messages";
import { formatMinutesSeconds } from "~/domain/time";
import { requireUser } from "~/services/auth.server";
import { readForm } from "~/utils/forms";

const RECENT_CLIPS = 5;

const timeZoneSchema = z.object({
  intent: z.literal("timezone"),
  timeZone: z
    .string()
    .max(64)
    .refine((tz) => {
      try {
        new Intl.DateTimeFormat("en-US", { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, "Unknown time zone."),
});

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const { env } = context.cloudflare;
  // Writes nothing: the starter reset is the ledger's own rule, applied when it loads (the page's socket shows it).
  return {
    firstName: firstName(user.fullName),
    timeZone: user.timeZone ?? "UTC",
    // Streamed: the page shows skeletons until the clips arrive. A failed read resolves to the error box's text
    // (a rejected stream would reach the browser as "Unexpected Server Error" in production).
    recent: recentClips(getDb(env.DB), user.id, RECENT_CLIPS).then(
      (clips) => ({ clips, error: null }),
      (error: unknown) => {
        console.error(JSON.stringify({ level: "error", msg: "recent clips failed", error: String(error) }));
        return { clips: [], error: RECENT_CLIPS_FAILED_MESSAGE };
      },
    ),
  };
}

/** Remembers the browser's time zone so the greeting is right on the server too. */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const parsed = timeZoneSchema.safeParse(await readForm(request));
  if (!parsed.success) return data({ ok: false }, { status: 400 });
  await saveTimeZone(getDb(context.cloudflare.env.DB), user.id, parsed.data.timeZone);
  return { ok: true };
}

function Greeting({ name, savedTimeZone }: { name: string; savedTimeZone: string }) {
  const fetcher = useFetcher();
  const [zone, setZone] = useState(savedTimeZone);
  useEffect(() => {
    const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (!browserZone || browserZone === savedTimeZone) return;
    setZone(browserZone);
    fetcher.submit({ intent: "timezone", timeZone: browserZone }, { method: "post" });
    // Once per saved zone.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [savedTimeZone]);
  return (
    <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">
      {greetingFor(new Date(), zone)}, {name}
    </h1>
  );
}

function RecentError() {
  return <ErrorBox error={useAsyncError()} />;
}

export default function Dashboard() {
  const { firstName: name, timeZone, recent } = useLoaderData<typeof loader>();
  const live = useLive();
  const plan = PLANS[effectivePlan(live.plan)];
  return (
    <div className="space-y-8">
      <Greeting name={name} savedTimeZone={timeZone} />
      <TeamCard />
      <div className="grid gap-6 md:grid-cols-2">
        <section className="card" aria-labelledby="credits-title">
          <h2 id="credits-title" className="text-sm font-medium text-slate-600">
            Credits
          </h2>
          <p className="mt-2 text-4xl font-bold tracking-tight" data-testid="credit-balance">
            {live.credits.balance.toLocaleString("en-US")}
          </p>
          {live.credits.held > 0 && (
            <p className="mt-1 text-sm text-slate-600">{live.credits.held} reserved for clips in progress</p>
          )}
          <Link to="/pricing" className="btn-primary mt-5">
            Buy More Credits
          </Link>
        </section>
        <section className="card" aria-labelledby="plan-title">
          <h2 id="plan-title" className="text-sm font-medium text-slate-600">
            Plan
          </h2>
          <p className="mt-2 text-4xl font-bold tracking-tight" data-testid="plan-name">
            {plan.name}
          </p>
          {live.pendingPlan && (
            <p className="mt-1 text-sm text-slate-600">Changes to {live.pendingPlan} at the end of this period</p>
          )}
          <Link to="/billing/plan" className="btn-secondary mt-5">
            Manage Plan
          </Link>
        </section>
      </div>
      <section className="card" aria-labelledby="activity-title">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="activity-title" className="text-lg font-semibold">
            Recent Activity
          </h2>
          <Link to="/clips" className="text-sm font-semibold text-brand-700 hover:underline">
            View all clips
          </Link>
        </div>
        <div className="mt-4">
          <Suspense fallback={<SkeletonRows rows={5} label="Loading recent clips" />}>
            <Await resolve={recent} errorElement={<RecentError />}>
              {(loaded) => {
                if (loaded.error) return <ErrorBox error={loaded.error} />;
                const clips = withNewClips(loaded.clips, live.newClips, RECENT_CLIPS);
                return clips.length === 0 ? (
                  <div className="rounded-xl border border-dashed border-slate-300 p-8 text-center">
                    <p className="font-medium">No clips created yet</p>
                    <Link to="/" className="btn-primary mt-4">
                      Create New Clip
                    </Link>
                  </div>
                ) : (
                  <ul className="divide-y divide-slate-100" data-testid="recent-clips">
                    {clips.map((clip) => (
                      <li key={clip.id}>
                        <Link
                          to={`/view-clip/${clip.id}`}
                          className="flex items-center justify-between gap-4 rounded-lg px-2 py-3 hover:bg-slate-50"
                        >
                          <span className="min-w-0">
                            <span className="block truncate font-medium">{clip.name}</span>
                            <span className="text-sm text-slate-600">{formatShortDate(clip.createdAt, timeZone)}</span>
                          </span>
                          <span className="font-mono text-sm text-slate-700" aria-label="Length">
                            {formatMinutesSeconds(clip.endSeconds - clip.startSeconds)}
                          </span>
                        </Link>
                      </li>
                    ))}
                  </ul>
                );
              }}
            </Await>
          </Suspense>
        </div>
      </section>
    </div>
  );
}

export const meta: MetaFunction = () => [
  { title: "Dashboard | ClipCut" },
  { name: "description", content: "Your credits, plan and recent clips." },
];
