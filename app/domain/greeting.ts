/**
 * Building an Intl.DateTimeFormat costs far more than using one (it was ~7% of a dashboard render), so each
 * (kind, zone) is built once per isolate. Zones are few; an unknown zone throws and is not kept.
 */
const formats = new Map<string, Intl.DateTimeFormat>();
function formatFor(kind: "hour" | "short", timeZone: string): Intl.DateTimeFormat {
  const key = `${kind}|${timeZone}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(
      "en-US",
      kind === "hour"
        ? { hour: "numeric", hourCycle: "h23", timeZone }
        : { month: "short", day: "numeric", year: "numeric", timeZone },
    );
    if (formats.size < 500) formats.set(key, format);
  }
  return format;
}

/** "Good morning" before 12, "Good afternoon" before 18, else "Good evening" — in the user's time zone. */
export function greetingFor(date: Date, timeZone: string): string {
  let hour: number;
  try {
    hour = Number(formatFor("hour", timeZone).format(date));
  } catch {
    hour = date.getUTCHours(); // unknown zone: fall back to UTC
  }
  if (hour < 12) return "Good morning";
  if (hour < 18) return "Good afternoon";
  return "Good evening";
}

/** The first word of the full name, as the dashboard greets. */
export function firstName(fullName: string): string {
  return fullName.trim().split(/\s+/)[0] ?? "";
}

/** en-US short dates, e.g. "Nov 21, 2026". */
export function formatShortDate(value: Date | string | number, timeZone = "UTC"): string {
  return formatFor("short", timeZone).format(new Date(value));
}
