/**
 * Time codes: ss, mm:ss or hh:mm:ss, with an optional fraction on the seconds (e.g. "1:02.5").
 * Minutes and seconds must stay below 60 once a larger unit is given.
 */
const TIMECODE = /^(?:(?:(\d+):)?(\d+):)?(\d+(?:\.\d+)?)$/;

export function parseTimecode(input: string): number | null {
  const match = TIMECODE.exec(input.trim());
  if (!match) return null;
  const [, h, m, s] = match;
  const hours = h === undefined ? 0 : Number(h);
  const minutes = m === undefined ? 0 : Number(m);
  const seconds = Number(s);
  if (m !== undefined && seconds >= 60) return null;
  if (h !== undefined && minutes >= 60) return null;
  const total = hours * 3600 + minutes * 60 + seconds;
  return Number.isFinite(total) ? total : null;
}

/** The admin clip modal's rule: mm:ss or hh:mm:ss; anything else counts as 0 seconds. */
export function parseClockTime(input: string): number {
  if (!input.includes(":")) return 0;
  return parseTimecode(input) ?? 0;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** mm:ss below an hour, hh:mm:ss from an hour on. Fractions are dropped (floored). */
export function formatTimecode(totalSeconds: number): string {
  const safe = Math.max(0, Math.floor(Number.isFinite(totalSeconds) ? totalSeconds : 0));
  const hours = Math.floor(safe / 3600);
  const minutes = Math.floor((safe % 3600) / 60);
  const seconds = safe % 60;
  return hours > 0 ? `${pad(hours)}:${pad(minutes)}:${pad(seconds)}` : `${pad(minutes)}:${pad(seconds)}`;
}

/** Always mm:ss (minutes may exceed 59), as the dashboard shows clip lengths. */
export function formatMinutesSeconds(totalSeconds: number): string {
  const safe = Math.max(0, Math.round(Number.isFinite(totalSeconds) ? totalSeconds : 0));
  return `${pad(Math.floor(safe / 60))}:${pad(safe % 60)}`;
}
