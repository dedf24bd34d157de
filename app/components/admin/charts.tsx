import { DrawnChart, formatNumber, SeriesChart, type Row } from "~/components/charts/chart";
import { AREA_CHART_ABOVE_BUCKETS } from "~/domain/admin";

const GROWTH = ["New Users", "Clips Created"];

/**
 * New users and clips per bucket: bars, or areas when there are more than 30 buckets. Calendars' daily
 * activity (`stack`) stays stacked bars, also in 31-day months.
 */
export function GrowthChart({ data, caption, stack = false }: { data: Row[]; caption: string; stack?: boolean }) {
  return (
    <SeriesChart
      kind={!stack && data.length > AREA_CHART_ABOVE_BUCKETS ? "area" : "bar"}
      data={data}
      index="label"
      categories={GROWTH}
      colors={["violet", "blue"]}
      caption={caption}
      stack={stack}
      testId="growth-chart"
    />
  );
}

export function PlanDonut({ data }: { data: { plan: string; count: number; percent: number }[] }) {
  return (
    <figure aria-label="Plan distribution">
      {/* The list below carries every number, so the donut is decoration: hidden from assistive technology and
          inert (its sectors would otherwise take focus inside a hidden element, and carry no text of their own). */}
      <div aria-hidden="true" {...{ inert: "" }}>
        <DrawnChart
          kind="donut"
          chart={{
            data,
            index: "plan",
            category: "count",
            colors: ["slate", "blue", "violet", "amber"],
            valueFormatter: formatNumber,
            className: "h-48",
          }}
        />
      </div>
      <ul className="mt-4 grid grid-cols-2 gap-2 text-sm">
        {data.map((d, i) => (
          <li key={d.plan} className="flex items-center gap-2">
            <span
              aria-hidden="true"
              className={`h-2.5 w-2.5 shrink-0 rounded-full ${["bg-slate-500", "bg-blue-500", "bg-violet-500", "bg-amber-500"][i]}`}
            />
            <span>{d.plan}</span>
            <span className="ml-auto tabular-nums text-slate-600">{d.percent}%</span>
          </li>
        ))}
      </ul>
    </figure>
  );
}

export function CreditUsageChart({ data }: { data: Row[] }) {
  return (
    <SeriesChart
      kind="line"
      data={data}
      index="month"
      categories={["Credits Used"]}
      colors={["blue"]}
      caption="Credit usage by month"
      yAxisWidth={56}
    />
  );
}
