import { AreaChart, BarChart, DonutChart, LineChart } from "@tremor/react";
import type { DrawnChartProps } from "./chart";

/** The drawn charts. A `.client` module: the Worker never loads Tremor (with recharts and d3, ~4 MB). */
export default function TremorChart(props: DrawnChartProps) {
  switch (props.kind) {
    case "area":
      return <AreaChart {...props.chart} />;
    case "bar":
      return <BarChart {...props.chart} />;
    case "line":
      return <LineChart {...props.chart} />;
    case "donut":
      return <DonutChart {...props.chart} />;
  }
}
