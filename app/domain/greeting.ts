/** "Good morning" before 12, "Good afternoon" before 18, else "Good evening" — in the user's time zone. */
export function greetingFor(date: Date, timeZone: string): string {
  let hour: number;
  try {
    hour = Number(new Intl.DateTimeFormat("en-US", { hour: "numeric", hourCycle: "h23", timeZone }).format(date));
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
  return new Date(value).toLocaleDateString("en-US", { month: "short", day: "numeric", year: "numeric", timeZone });
}
