import type { AreaChartProps, BarChartProps, DonutChartProps, LineChartProps } from "@tremor/react";
import { lazy, Suspense, useEffect, useState } from "react";
import { AREA_CHART_ABOVE_BUCKETS } from "~/domain/admin";

export type DrawnChartProps =
  | { kind: "area"; chart: AreaChartProps }
  | { kind: "bar"; chart: BarChartProps }
  | { kind: "line"; chart: LineChartProps }
  | { kind: "donut"; chart: DonutChartProps };

// Charts are drawn in the browser only: the server renders the numbers (the sr-only tables below) and a box of the
// chart's height, so the Worker never loads Tremor.
const TremorChart = lazy(() => import("./tremor-chart.client"));

function DrawnChart(props: DrawnChartProps) {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const box = <div className={props.chart.className} />;
  return hydrated ? (
    <Suspense fallback={box}>
      <TremorChart {...props} />
    </Suspense>
  ) : (
    box
  );
}

type Row = Record<string, string | number>;
// The drawn chart is decoration for assistive tech (the sr-only table has the numbers): inert also takes its
// legend buttons out of the tab order. React 18 has no typed `inert` prop; an empty string renders the attribute.
const INERT = { inert: "" } as object;
const number = (n: number) => n.toLocaleString("en-US");

/** The same numbers as a table for screen readers (the SVG chart is decoration for them). */
function ChartTable({
  data,
  index,
  categories,
  caption,
}: {
  data: Row[];
  index: string;
  categories: string[];
  caption: string;
}) {
  return (
    <table className="sr-only">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{index}</th>
          {categories.map((c) => (
            <th key={c} scope="col">
              {c}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {data.map((row) => (
          <tr key={String(row[index])}>
            <th scope="row">{row[index]}</th>
            {categories.map((c) => (
              <td key={c}>{row[c]}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const GROWTH = ["New Users", "Clips Created"];

/** New users and clips per bucket: bars, or areas when there are more than 30 buckets. */
export function GrowthChart({ data, caption, stack = false }: { data: Row[]; caption: string; stack?: boolean }) {
  const props = {
    data,
    index: "label",
    categories: GROWTH,
    colors: ["violet", "blue"],
    valueFormatter: number,
    className: "h-72",
    allowDecimals: false,
    yAxisWidth: 48,
  };
  return (
    <figure aria-label={caption} data-testid="growth-chart">
      <div aria-hidden="true" {...INERT}>
        {data.length > AREA_CHART_ABOVE_BUCKETS ? (
          <DrawnChart kind="area" chart={props} />
        ) : (
          <DrawnChart kind="bar" chart={{ ...props, stack }} />
        )}
      </div>
      <ChartTable data={data} index="label" categories={GROWTH} caption={caption} />
    </figure>
  );
}

export function PlanDonut({ data }: { data: { plan: string; count: number; percent: number }[] }) {
  return (
    <figure aria-label="Plan distribution">
      <div aria-hidden="true" {...INERT}>
        <DrawnChart
          kind="donut"
          chart={{
            data,
            index: "plan",
            category: "count",
            colors: ["slate", "blue", "violet", "amber"],
            valueFormatter: number,
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
    <figure aria-label="Credit usage by month">
      <div aria-hidden="true" {...INERT}>
        <DrawnChart
          kind="line"
          chart={{
            data,
            index: "month",
            categories: ["Credits Used"],
            colors: ["blue"],
            valueFormatter: number,
            className: "h-72",
            yAxisWidth: 56,
          }}
        />
      </div>
      <ChartTable data={data} index="month" categories={["Credits Used"]} caption="Credit usage by month" />
    </figure>
  );
}
