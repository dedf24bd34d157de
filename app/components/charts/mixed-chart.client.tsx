import { Area, Bar, CartesianGrid, ComposedChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { TooltipProps } from "recharts";
import type { NameType, ValueType } from "recharts/types/component/DefaultTooltipContent";
import type { MixedChartProps } from "./chart";

/** Tremor's palette (Tailwind 500s), so a mixed chart sits beside Tremor's own charts unchanged. */
const HEX: Record<string, string> = {
  blue: "#3b82f6",
  violet: "#8b5cf6",
  emerald: "#10b981",
  amber: "#f59e0b",
  slate: "#64748b",
  rose: "#f43f5e",
};

/**
 * Bars and areas in one chart (Tremor draws one kind per chart): the spec's Growth Overview keeps new users as bars
 * and draws clips as an area above 30 buckets. Same axes, grid and tooltip as Tremor's charts.
 */
export default function MixedChart({
  data,
  index,
  bars,
  areas,
  colors,
  valueFormatter,
  className,
  yAxisWidth,
}: MixedChartProps) {
  const color = (category: string) => HEX[colors[category] ?? "blue"] ?? "#3b82f6";
  const axis = { fontSize: 12, fill: "#6b7280" };
  return (
    <div className={className}>
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={data} margin={{ top: 5, right: 5, bottom: 5, left: 0 }}>
          <CartesianGrid vertical={false} stroke="#e5e7eb" />
          <XAxis
            dataKey={index}
            tick={axis}
            axisLine={false}
            tickLine={false}
            minTickGap={5}
            interval="preserveStartEnd"
          />
          <YAxis
            width={yAxisWidth}
            tick={axis}
            axisLine={false}
            tickLine={false}
            allowDecimals={false}
            tickFormatter={valueFormatter}
          />
          <Tooltip
            cursor={{ fill: "#d1d5db", opacity: 0.15 }}
            content={({ active, payload, label }) => (
              <MixedTooltip
                active={active}
                payload={payload}
                label={label}
                color={color}
                valueFormatter={valueFormatter}
              />
            )}
          />
          {bars.map((c) => (
            <Bar key={c} dataKey={c} name={c} fill={color(c)} isAnimationActive={false} />
          ))}
          {areas.map((c) => (
            <Area
              key={c}
              dataKey={c}
              name={c}
              type="linear"
              stroke={color(c)}
              strokeWidth={2}
              fill={color(c)}
              fillOpacity={0.2}
              isAnimationActive={false}
            />
          ))}
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}

function MixedTooltip({
  active,
  payload,
  label,
  color,
  valueFormatter,
}: Pick<TooltipProps<ValueType, NameType>, "active" | "payload" | "label"> & {
  color: (category: string) => string;
  valueFormatter: (n: number) => string;
}) {
  if (!active || !payload?.length) return null;
  return (
    <div className="rounded-md border border-slate-200 bg-white text-sm shadow-md">
      <p className="border-b border-slate-200 px-4 py-2 font-medium text-slate-700">{label}</p>
      <div className="space-y-1 px-4 py-2">
        {payload.map((item) => (
          <p key={String(item.dataKey)} className="flex items-center justify-between gap-8">
            <span className="flex items-center gap-2 text-slate-600">
              <span
                aria-hidden="true"
                className="h-3 w-3 rounded-full border-2 border-white shadow"
                style={{ background: color(String(item.dataKey)) }}
              />
              {item.name}
            </span>
            <span className="font-medium tabular-nums text-slate-700">{valueFormatter(Number(item.value ?? 0))}</span>
          </p>
        ))}
      </div>
    </div>
  );
}
