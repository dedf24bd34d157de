import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { ListTable, Td } from "~/components/list";
import { TeamFigures } from "~/components/analytics/team-figures";
import { SeriesChart } from "~/components/charts/chart";
import { VideoSourceLink } from "~/components/video-source-link";
import { creatorAnalytics } from "~/db/analytics.server";
import { getDb } from "~/db/client.server";
import {
  ANALYTICS_RANGE_LABELS,
  ANALYTICS_RANGES,
  ANALYTICS_UPSELL,
  analyticsBuckets,
  analyticsRangeSchema,
  analyticsWindow,
  clipsSeriesAsArea,
  fillBuckets,
  formatDuration,
  type AnalyticsRange,
} from "~/domain/analytics";
import { FORMAT_LABELS, QUALITY_LABELS, type Format, type Quality } from "~/domain/media";
import { PLAN_LIST } from "~/domain/plans";
import { requireUser } from "~/services/auth.server";
import { teamFiguresForOwner } from "~/services/teams.server";

// Which plans include the dashboard, named on the upgrade page (from the plan definitions, never a copy).
const INCLUDED_IN = PLAN_LIST.filter((p) => p.analytics).map((p) => p.name);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  // The loader decides: below Advanced the page gets no figures at all, only what the dashboard offers.
  const db = getDb(context.cloudflare.env.DB);
  if (!user.standing.applied.analytics) return { allowed: false as const, includedIn: INCLUDED_IN };
  const range = analyticsRangeSchema.parse(new URL(request.url).searchParams.get("range") ?? undefined);
  const now = Date.now();
  const window = analyticsWindow(range, now);
  // A Pro team owner also sees each person's figures from the team's balance.
  const [figures, team] = await Promise.all([
    creatorAnalytics(db, user.id, window),
    teamFiguresForOwner(db, user.id, new Date(window.from ?? 0)),
  ]);
  const series = fillBuckets(analyticsBuckets(range, now, figures.earliest), figures.days);
  return {
    allowed: true as const,
    range,
    totals: figures.totals,
    series: series.map((b) => ({ Period: b.label, Clips: b.clips, Credits: b.credits })),
    formats: figures.formats.map((f) => ({
      Format: FORMAT_LABELS[f.key as Format] ?? f.key,
      Clips: f.clips,
      Credits: f.credits,
    })),
    qualities: figures.qualities.map((q) => ({
      Quality: QUALITY_LABELS[q.key as Quality] ?? q.key,
      Clips: q.clips,
      Credits: q.credits,
    })),
    sources: figures.sources,
    team: team?.map(({ id, fullName, email, role, clips, credits }) => ({ id, fullName, email, role, clips, credits })),
  };
}

const n = (value: number) => value.toLocaleString("en-US");

function RangePicker({ current }: { current: AnalyticsRange }) {
  return (
    <nav aria-label="Range">
      <ul className="flex flex-wrap rounded-lg border border-slate-200 bg-white p-0.5 text-sm">
        {ANALYTICS_RANGES.map((r) => (
          <li key={r}>
            <Link
              to={`?range=${r}`}
              preventScrollReset
              aria-current={r === current ? "true" : undefined}
              className={`block rounded-md px-3 py-1.5 ${r === current ? "bg-brand-50 font-semibold text-brand-700" : "text-slate-700 hover:bg-slate-100"}`}
            >
              {ANALYTICS_RANGE_LABELS[r]}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function Card({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="card min-w-0 p-4 sm:p-5">
      <p className="text-sm font-medium text-slate-600">{label}</p>
      <p className="mt-2 text-xl font-bold tabular-nums sm:text-2xl" data-testid={testId}>
        {value}
      </p>
    </div>
  );
}

function Upsell({ includedIn }: { includedIn: string[] }) {
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold tracking-tight">Analytics</h1>
      <section className="card" aria-labelledby="upsell-title">
        <h2 id="upsell-title" className="text-lg font-semibold" data-testid="analytics-upsell">
          {ANALYTICS_UPSELL}
        </h2>
        <p className="mt-2 text-slate-600">Included in {includedIn.join(" and ")}. With it you see, for any range:</p>
        <ul className="mt-4 list-disc space-y-1 pl-5 text-slate-700">
          <li>clips created, credits spent, minutes clipped and your average clip length;</li>
          <li>clips and credits over time, by day or by month;</li>
          <li>which formats and qualities you export most;</li>
          <li>your top source videos;</li>
          <li>a CSV export of your clips.</li>
        </ul>
        <Link to="/billing/plan" className="btn-primary mt-6">
          See plans and upgrade
        </Link>
      </section>
    </div>
  );
}

export default function AnalyticsPage() {
  const data = useLoaderData<typeof loader>();
  if (!data.allowed) return <Upsell includedIn={data.includedIn} />;
  const { range, totals, series, formats, qualities, sources, team } = data;
  const label = ANALYTICS_RANGE_LABELS[range].toLowerCase();
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-bold tracking-tight">Analytics</h1>
        <a href={`/analytics/export?range=${range}`} className="btn-secondary" download>
          Export CSV<span className="sr-only"> of your clips, {label}</span>
        </a>
      </div>
      <RangePicker current={range} />
      <div className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
        <Card label="Clips created" value={n(totals.clips)} testId="stat-clips" />
        <Card label="Credits spent" value={n(totals.credits)} testId="stat-credits" />
        <Card label="Minutes clipped" value={n(Math.round((totals.seconds / 60) * 10) / 10)} testId="stat-minutes" />
        <Card label="Average clip length" value={formatDuration(totals.averageSeconds)} testId="stat-average" />
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <section className="card min-w-0" aria-labelledby="clips-time">
          <h2 id="clips-time" className="mb-4 text-lg font-semibold">
            Clips over time
          </h2>
          <SeriesChart
            kind={clipsSeriesAsArea(series.length) ? "area" : "bar"}
            data={series}
            index="Period"
            categories={["Clips"]}
            colors={["blue"]}
            caption={`Clips created, ${label}`}
            testId="clips-chart"
          />
        </section>
        <section className="card min-w-0" aria-labelledby="credits-time">
          <h2 id="credits-time" className="mb-4 text-lg font-semibold">
            Credits over time
          </h2>
          <SeriesChart
            kind="bar"
            data={series}
            index="Period"
            categories={["Credits"]}
            colors={["violet"]}
            caption={`Credits spent, ${label}`}
            testId="credits-chart"
          />
        </section>
        <section className="card min-w-0" aria-labelledby="formats">
          <h2 id="formats" className="mb-4 text-lg font-semibold">
            Formats
          </h2>
          {formats.length === 0 ? (
            <p className="py-8 text-center text-slate-600">No clips in this range.</p>
          ) : (
            <SeriesChart
              kind="bar"
              data={formats}
              index="Format"
              categories={["Clips", "Credits"]}
              colors={["blue", "violet"]}
              caption={`Clips and credits by format, ${label}`}
              className="h-56"
            />
          )}
        </section>
        <section className="card min-w-0" aria-labelledby="qualities">
          <h2 id="qualities" className="mb-4 text-lg font-semibold">
            Qualities
          </h2>
          {qualities.length === 0 ? (
            <p className="py-8 text-center text-slate-600">No clips in this range.</p>
          ) : (
            <SeriesChart
              kind="bar"
              data={qualities}
              index="Quality"
              categories={["Clips", "Credits"]}
              colors={["emerald", "amber"]}
              caption={`Clips and credits by quality, ${label}`}
              className="h-56"
            />
          )}
        </section>
      </div>
      {team && <TeamFigures people={team} label={label} />}
      <section className="card overflow-hidden p-0" aria-labelledby="sources">
        <h2 id="sources" className="px-6 pt-6 text-lg font-semibold">
          Top source videos
        </h2>
        <div className="mt-4">
          <ListTable
            caption="Top source videos"
            columns={["Video", { label: "Clips", align: "right" }, { label: "Credits", align: "right" }]}
            isEmpty={sources.length === 0}
            empty="No clips in this range."
            minWidth={false}
            framed={false}
          >
            {sources.map((s) => (
              <tr key={s.videoUrl}>
                <td className="max-w-md px-4 py-3">
                  <VideoSourceLink url={s.videoUrl} />
                </td>
                <Td className="text-right tabular-nums">{n(s.clips)}</Td>
                <Td className="text-right tabular-nums">{n(s.credits)}</Td>
              </tr>
            ))}
          </ListTable>
        </div>
      </section>
    </div>
  );
}

export const meta: MetaFunction = () => [
  { title: "Analytics | ClipCut" },
  { name: "description", content: "Your clips, credits and formats over time." },
];
