import type { FeatureIcon } from "~/domain/features";

const chip = "rounded-full px-3 py-1 text-xs font-semibold";

function Timeline() {
  return (
    <div className="w-full">
      <div className="relative h-12 rounded-lg bg-slate-100">
        <div className="absolute inset-y-0 left-[22%] right-[34%] rounded-md border-2 border-brand-600 bg-brand-100" />
        <div className="absolute inset-y-[-5px] left-[22%] w-3 -translate-x-1/2 rounded bg-brand-600 shadow" />
        <div className="absolute inset-y-[-5px] right-[34%] w-3 translate-x-1/2 rounded bg-brand-600 shadow" />
      </div>
      <div className="mt-4 grid grid-cols-2 gap-3 text-xs">
        <span className="rounded-lg border border-slate-200 bg-white px-3 py-2 font-mono text-slate-700">01:05</span>
        <span className="rounded-lg border border-slate-200 bg-white px-3 py-2 font-mono text-slate-700">02:40</span>
      </div>
    </div>
  );
}

function Player() {
  return (
    <div className="w-full">
      <div className="grid aspect-video place-items-center rounded-xl bg-gradient-to-br from-slate-800 to-brand-900">
        <span className="grid h-12 w-12 place-items-center rounded-full bg-white/90">
          <svg viewBox="0 0 24 24" className="ml-0.5 h-5 w-5 text-brand-700" fill="currentColor">
            <path d="M7 5v14l12-7z" />
          </svg>
        </span>
      </div>
      <div className="relative mt-3 h-2 rounded-full bg-slate-200">
        <div className="absolute inset-y-0 left-[30%] right-[25%] rounded-full bg-brand-500" />
        <div className="absolute -top-1 left-[52%] h-4 w-1 rounded bg-slate-900" />
      </div>
    </div>
  );
}

function Chips({ items, active }: { items: readonly string[]; active: string }) {
  return (
    <div className="flex flex-wrap justify-center gap-2">
      {items.map((item) => (
        <span
          key={item}
          className={`${chip} px-4 py-2 text-sm ${item === active ? "bg-brand-600 text-white shadow" : "bg-white text-slate-700 ring-1 ring-slate-200"}`}
        >
          {item}
        </span>
      ))}
    </div>
  );
}

function Rows({ rows }: { rows: readonly { label: string; detail: string; progress?: number }[] }) {
  return (
    <ul className="w-full space-y-3">
      {rows.map((row) => (
        <li key={row.label} className="rounded-xl border border-slate-200 bg-white px-4 py-3 shadow-sm">
          <div className="flex items-center justify-between text-sm">
            <span className="font-semibold text-slate-800">{row.label}</span>
            <span className="text-xs text-slate-600">{row.detail}</span>
          </div>
          {row.progress !== undefined && (
            <div className="mt-2 h-1.5 rounded-full bg-slate-100">
              <div className="h-full rounded-full bg-brand-500" style={{ width: `${row.progress}%` }} />
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}

function Bars() {
  const heights = [35, 55, 40, 70, 60, 85, 75];
  return (
    <div className="flex h-40 w-full items-end gap-3 border-b border-slate-300 px-2">
      {heights.map((h, i) => (
        <div
          key={i}
          className="flex-1 rounded-t-md bg-brand-500"
          style={{ height: `${h}%`, opacity: 0.5 + i * 0.07 }}
        />
      ))}
    </div>
  );
}

const VISUALS: Record<FeatureIcon, () => JSX.Element> = {
  handles: Timeline,
  preview: Player,
  quality: () => <Chips items={["360p", "720p", "1080p", "4K"]} active="4K" />,
  formats: () => <Chips items={["MP4", "MKV", "MP3", "WAV"]} active="MP4" />,
  batch: () => (
    <Rows
      rows={[
        { label: "Intro highlight", detail: "Done", progress: 100 },
        { label: "Best moment", detail: "Exporting", progress: 60 },
        { label: "Closing quote", detail: "Queued", progress: 0 },
      ]}
    />
  ),
  presets: () => (
    <Rows
      rows={[
        { label: "Shorts", detail: "MP4 · 1080p" },
        { label: "Podcast clip", detail: "MP3" },
        { label: "Edit master", detail: "MKV · 4K" },
      ]}
    />
  ),
  analytics: Bars,
};

/** A small, decorative picture of a feature for /features. */
export function FeatureVisual({ icon }: { icon: FeatureIcon }) {
  const Visual = VISUALS[icon];
  return (
    <div
      className="grid aspect-[16/10] place-items-center rounded-3xl border border-brand-100 bg-gradient-to-br from-brand-50 via-white to-sky-50 p-8 sm:p-12"
      aria-hidden="true"
    >
      <Visual />
    </div>
  );
}
