import {
  CHART_FOCUS,
  DrawnChart,
  formatNumber,
  READOUT_BOX,
  SeriesChart,
  useKeyboardReadout,
  type Row,
} from "~/components/charts/chart";
import { areaSeries } from "~/domain/analytics";

const GROWTH = ["New Users", "Clips Created"];

/**
 * New users and clips per bucket, as bars; above 30 buckets the clips series alone becomes an area (spec). Calendars'
 * daily activity (`stack`) stays stacked bars, also in 31-day months.
 */
export function GrowthChart({ data, caption, stack = false }: { data: Row[]; caption: string; stack?: boolean }) {
  return (
    <SeriesChart
      kind="bar"
      areaCategories={areaSeries("Clips Created", data.length, stack)}
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
  const { active, handlers } = useKeyboardReadout(data.length);
  const shown = active === null ? undefined : data[active];
  return (
    <figure aria-label="Plan distribution">
      {/* The mouse gets Tremor's tooltip; the keyboard moves a readout over the plans. The drawing itself is hidden
          from assistive technology: the list below and the readout carry every number. */}
      <div
        role="group"
        tabIndex={0}
        aria-label="Plan distribution. Use the left and right arrow keys to read each plan."
        aria-describedby="plan-donut-readout"
        {...handlers}
        className={CHART_FOCUS}
      >
        <div aria-hidden="true">
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
        <div id="plan-donut-readout" role="status" className={shown ? READOUT_BOX : "sr-only"}>
          {shown && (
            <>
              <p className="font-semibold">{shown.plan}</p>
              <p className="tabular-nums">
                {formatNumber(shown.count)} users ({shown.percent}%)
              </p>
            </>
          )}
        </div>
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
