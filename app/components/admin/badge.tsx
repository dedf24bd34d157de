/** Status badge colours from the spec (§3). Unknown values use the Expired style. */
const STYLES: Record<string, string> = {
  Approved: "bg-emerald-100 text-emerald-800",
  Pending: "bg-amber-100 text-amber-800",
  Rejected: "bg-red-100 text-red-800",
  Paid: "bg-emerald-100 text-emerald-800",
  Cancelled: "bg-red-100 text-red-800",
  Available: "bg-sky-100 text-sky-800",
  "Checked In": "bg-emerald-100 text-emerald-800",
  "Not Checked In": "bg-slate-200 text-slate-800",
  Public: "bg-sky-100 text-sky-800",
  Active: "bg-emerald-100 text-emerald-800",
  online: "bg-emerald-100 text-emerald-800",
  offline: "bg-slate-200 text-slate-700",
  Banned: "bg-red-100 text-red-800",
  Expired: "bg-zinc-200 text-zinc-700",
  Scheduled: "bg-indigo-100 text-indigo-800",
  Completed: "bg-emerald-100 text-emerald-800",
  admin: "bg-violet-100 text-violet-800",
  user: "bg-slate-100 text-slate-700",
  Free: "bg-slate-100 text-slate-700",
  Basic: "bg-sky-100 text-sky-800",
  Advanced: "bg-indigo-100 text-indigo-800",
  Pro: "bg-amber-100 text-amber-900",
  "Pro User": "bg-amber-100 text-amber-900",
  "Free User": "bg-slate-100 text-slate-700",
  // The Inbox's contact message statuses.
  New: "bg-amber-100 text-amber-900",
  Answered: "bg-emerald-100 text-emerald-800",
  Closed: "bg-slate-200 text-slate-700",
};

export const badgeStyle = (value: string) => STYLES[value] ?? (STYLES.Expired as string);

export function StatusBadge({ value }: { value: string }) {
  // Legacy "Plugin" is shown as Free, as it counts everywhere.
  const shown = value === "Plugin" ? "Free" : value;
  return (
    <span className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ${badgeStyle(shown)}`}>{shown}</span>
  );
}
