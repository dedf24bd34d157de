import type { AreaChartProps, BarChartProps, DonutChartProps, LineChartProps } from "@tremor/react";
import { lazy, Suspense, useEffect, useState, type KeyboardEvent } from "react";

/**
 * The one chart module of the site: the creator's Analytics Dashboard and the admin screens draw through it.
 * Every chart has its exact numbers in a screen-reader table; the drawn chart answers the mouse (Tremor's tooltip),
 * the keyboard (arrow keys move a readout over the buckets) and has a legend of toggle buttons.
 */
/** Some series as bars, some as areas, in one chart (drawn with recharts, which Tremor is built on). */
export interface MixedChartProps {
  data: Row[];
  index: string;
  bars: string[];
  areas: string[];
  /** Each category's Tremor colour name. */
  colors: Record<string, string>;
  valueFormatter: (n: number) => string;
  className?: string;
  yAxisWidth: number;
}

export type DrawnChartProps =
  | { kind: "area"; chart: AreaChartProps }
  | { kind: "mixed"; chart: MixedChartProps }
  | { kind: "bar"; chart: BarChartProps }
  | { kind: "line"; chart: LineChartProps }
  | { kind: "donut"; chart: DonutChartProps };

// Charts are drawn in the browser only: the server renders the numbers (the sr-only tables) and a box of the
// chart's height, so the Worker never loads Tremor.
const TremorChart = lazy(() => import("./tremor-chart.client"));

export function DrawnChart(props: DrawnChartProps) {
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

export type Row = Record<string, string | number>;
export const formatNumber = (n: number) => n.toLocaleString("en-US");

/** The same numbers as a table for screen readers. */
export function ChartTable({
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
              <td key={c}>{typeof row[c] === "number" ? formatNumber(row[c]) : row[c]}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The keyboard's tooltip: focus a chart and use ←/→ (Home/End) to move over its buckets, Escape to close. The
 * readout it drives shows what the mouse tooltip shows.
 */
export function useKeyboardReadout(count: number) {
  const [active, setActive] = useState<number | null>(null);
  const onKeyDown = (event: KeyboardEvent) => {
    if (count === 0) return;
    const last = count - 1;
    const current = active ?? last;
    const next =
      event.key === "ArrowLeft"
        ? Math.max(0, current - 1)
        : event.key === "ArrowRight"
          ? Math.min(last, current + 1)
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? last
              : event.key === "Escape"
                ? null
                : undefined;
    if (next === undefined) return;
    event.preventDefault();
    setActive(next);
  };
  return {
    active,
    handlers: {
      onKeyDown,
      onFocus: () => setActive((a) => a ?? (count ? count - 1 : null)),
      onBlur: () => setActive(null),
    },
  };
}

/** The focus ring of a chart's keyboard group. */
export const CHART_FOCUS =
  "relative rounded-lg focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600";

/** The readout box the keyboard moves (and screen readers hear, as a status). */
export const READOUT_BOX =
  "absolute right-2 top-0 z-10 rounded-md border border-slate-200 bg-white px-3 py-2 text-sm shadow";

const SWATCH: Record<string, string> = {
  blue: "bg-blue-500",
  violet: "bg-violet-500",
  emerald: "bg-emerald-500",
  amber: "bg-amber-500",
  slate: "bg-slate-500",
  rose: "bg-rose-500",
};

export interface SeriesChartProps {
  kind: "bar" | "area" | "line";
  /** With kind "bar": these categories are drawn as areas in the same chart (the spec's clips above 30 buckets). */
  areaCategories?: string[];
  data: Row[];
  index: string;
  categories: string[];
  colors: string[];
  caption: string;
  className?: string;
  stack?: boolean;
  yAxisWidth?: number;
  testId?: string;
}

/**
 * A bar, area or line chart with a legend that hides and shows series (buttons, aria-pressed) and a keyboard
 * readout: focus the chart and use ←/→ (Home/End) to read each bucket, as the mouse tooltip shows it.
 */
export function SeriesChart({
  kind,
  areaCategories = [],
  data,
  index,
  categories,
  colors,
  caption,
  className = "h-72",
  stack = false,
  yAxisWidth = 48,
  testId,
}: SeriesChartProps) {
  const [hidden, setHidden] = useState<string[]>([]);
  const { active, handlers } = useKeyboardReadout(data.length);
  const shown = categories.filter((c) => !hidden.includes(c));
  const shownColors = categories.flatMap((c, i) => (hidden.includes(c) ? [] : [colors[i] ?? "blue"]));
  const chart = {
    data,
    index,
    categories: shown,
    colors: shownColors,
    valueFormatter: formatNumber,
    className,
    allowDecimals: false,
    yAxisWidth,
    showLegend: false,
  };
  const activeRow = active === null ? undefined : data[active];
  return (
    <figure aria-label={caption} data-testid={testId}>
      <div
        role="group"
        tabIndex={0}
        aria-label={`${caption}. Use the left and right arrow keys to read each ${index}.`}
        aria-describedby={testId ? `${testId}-readout` : undefined}
        {...handlers}
        className={CHART_FOCUS}
      >
        {/* The drawn SVG repeats the table's numbers; the group's readout and the table speak for it. */}
        <div aria-hidden="true">
          {kind === "bar" && shown.some((c) => areaCategories.includes(c)) ? (
            <DrawnChart
              kind="mixed"
              chart={{
                data,
                index,
                bars: shown.filter((c) => !areaCategories.includes(c)),
                areas: shown.filter((c) => areaCategories.includes(c)),
                colors: Object.fromEntries(categories.map((c, i) => [c, colors[i] ?? "blue"])),
                valueFormatter: formatNumber,
                className,
                yAxisWidth,
              }}
            />
          ) : kind === "bar" ? (
            <DrawnChart kind="bar" chart={{ ...chart, stack }} />
          ) : kind === "area" ? (
            <DrawnChart kind="area" chart={{ ...chart, stack }} />
          ) : (
            <DrawnChart kind="line" chart={chart} />
          )}
        </div>
        <div
          id={testId ? `${testId}-readout` : undefined}
          role="status"
          className={activeRow ? READOUT_BOX : "sr-only"}
        >
          {activeRow && (
            <>
              <p className="font-semibold">{activeRow[index]}</p>
              {shown.map((c) => (
                <p key={c} className="tabular-nums">
                  {c}: {formatNumber(Number(activeRow[c] ?? 0))}
                </p>
              ))}
            </>
          )}
        </div>
      </div>
      <ul className="mt-3 flex flex-wrap gap-2 text-sm" aria-label={`${caption}: series`}>
        {categories.map((c, i) => {
          const on = !hidden.includes(c);
          return (
            <li key={c}>
              <button
                type="button"
                aria-pressed={on}
                // The last visible series stays: an empty chart helps nobody.
                disabled={on && shown.length === 1}
                onClick={() => setHidden((h) => (on ? [...h, c] : h.filter((x) => x !== c)))}
                className={`inline-flex items-center gap-2 rounded-md px-2 py-1 text-slate-700 hover:bg-slate-100 ${on ? "" : "opacity-60 line-through"}`}
              >
                <span aria-hidden="true" className={`h-2.5 w-2.5 rounded-full ${SWATCH[colors[i] ?? "blue"]}`} />
                {c}
              </button>
            </li>
          );
        })}
      </ul>
      <ChartTable data={data} index={index} categories={categories} caption={caption} />
    </figure>
  );
}
