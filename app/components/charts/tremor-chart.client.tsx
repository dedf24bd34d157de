import { AreaChart, BarChart, DonutChart, LineChart } from "@tremor/react";
import { useEffect, useRef } from "react";
import type { DrawnChartProps } from "./chart";
import MixedChart from "./mixed-chart.client";

/** The drawn charts. A `.client` module: the Worker never loads Tremor (with recharts and d3, ~4 MB). */
export default function TremorChart(props: DrawnChartProps) {
  const box = useRef<HTMLDivElement>(null);
  // The drawing is hidden from assistive technology (the readout and the tables speak for it), so nothing in it may
  // take focus: recharts makes a pie's sectors tabbable, and redraws them on every hover.
  useEffect(() => {
    const root = box.current;
    if (!root) return;
    const unfocus = () =>
      root.querySelectorAll('[tabindex]:not([tabindex="-1"])').forEach((el) => el.setAttribute("tabindex", "-1"));
    unfocus();
    const observer = new MutationObserver(unfocus);
    observer.observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ["tabindex"] });
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={box}>
      <Drawn {...props} />
    </div>
  );
}

function Drawn(props: DrawnChartProps) {
  switch (props.kind) {
    case "area":
      return <AreaChart {...props.chart} />;
    case "bar":
      return <BarChart {...props.chart} />;
    case "mixed":
      return <MixedChart {...props.chart} />;
    case "line":
      return <LineChart {...props.chart} />;
    case "donut":
      return <DonutChart {...props.chart} />;
  }
}
