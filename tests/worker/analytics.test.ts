import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { parseCsv } from "~/domain/csv";
import { get, insertUser, sessionFor } from "./helpers";

const DAY = 86_400_000;
const FORMATS = ["mp4", "mp3", "gif", "webm"];
const QUALITIES = ["360p", "720p", "1080p"];

/** Clips at fixed ages (days ago, at noon UTC, away from every range's edge), with varied cost, length and format. */
const AGES = [0, 1, 3, 6, 10, 20, 28, 45, 90, 200, 330, 500, 800];

async function insertClips(userId: string, now: number) {
  const noon = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), new Date(now).getUTCDate(), 12);
  const statements = AGES.flatMap((age, i) =>
    Array.from({ length: (i % 3) + 1 }, (_, j) =>
      env.DB.prepare(
        "INSERT INTO clips (id, user_id, payer_id, name, video_url, start_time_seconds, end_time_seconds, format, quality, cost, status, source, created_at) VALUES (?1, ?2, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 'Completed', 'seed', ?10)",
      ).bind(
        crypto.randomUUID(),
        userId,
        `clip ${i}-${j}`,
        `https://www.youtube.com/watch?v=video${(i + j) % 4}xxxxx`,
        j * 5,
        j * 5 + 7 + i * 3,
        FORMATS[(i + j) % FORMATS.length],
        QUALITIES[i % QUALITIES.length],
        1 + ((i * 7 + j) % 5),
        // Clips "today" sit an hour back so they are never in the future.
        Math.min(noon - age * DAY, now - 3_600_000),
      ),
    ),
  );
  await env.DB.batch(statements);
}

/** Start of each range, computed here from the spec's words (UTC days and months), not by the app's code. */
function rangeStart(range: "7d" | "30d" | "12m" | "all", now: number): number {
  const d = new Date(now);
  const today = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  if (range === "7d") return today - 6 * DAY;
  if (range === "30d") return today - 29 * DAY;
  if (range === "12m") return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 11, 1);
  return 0;
}

async function sqlFigures(userId: string, from: number) {
  const row = await env.DB.prepare(
    "SELECT count(*) AS clips, coalesce(sum(cost), 0) AS credits, coalesce(sum(end_time_seconds - start_time_seconds), 0) AS seconds FROM clips WHERE user_id = ? AND created_at >= ?",
  )
    .bind(userId, from)
    .first<{ clips: number; credits: number; seconds: number }>();
  const formats = await env.DB.prepare(
    "SELECT format, count(*) AS n FROM clips WHERE user_id = ? AND created_at >= ? GROUP BY format",
  )
    .bind(userId, from)
    .all<{ format: string; n: number }>();
  return { ...row!, formats: formats.results };
}

const stat = (html: string, id: string) => html.match(new RegExp(`data-testid="${id}">([^<]*)<`))?.[1];

const users: Record<string, { id: string; cookie: string }> = {};

beforeAll(async () => {
  for (const plan of ["Free", "Basic", "Plugin", "Advanced", "Pro"]) {
    const email = `analytics-${plan.toLowerCase()}@example.com`;
    const id = await insertUser({ email, plan });
    await insertClips(id, Date.now());
    users[plan] = { id, cookie: await sessionFor(id) };
  }
});

describe("/analytics gate: the loader decides by plan", () => {
  for (const plan of ["Free", "Basic", "Plugin"]) {
    it(`${plan}: the upgrade page, none of the creator's figures, and no CSV`, async () => {
      const res = await get("/analytics?range=all", { cookie: users[plan]!.cookie });
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain("Analytics Dashboard is part of the Advanced plan");
      expect(html).toContain('href="/billing/plan"');
      expect(html).not.toContain('data-testid="stat-clips"');
      expect(html).not.toContain("youtube.com/watch?v=video");
      const csv = await get("/analytics/export?range=all", { cookie: users[plan]!.cookie });
      expect(csv.status).toBe(403);
      expect(await csv.text()).not.toContain("clip ");
    });
  }

  it("anonymous visitors go to sign-in", async () => {
    expect((await get("/analytics")).status).toBe(302);
    expect((await get("/analytics/export")).status).toBe(302);
  });
});

describe("/analytics figures equal a direct SQL count", () => {
  for (const plan of ["Advanced", "Pro"]) {
    for (const range of ["7d", "30d", "12m", "all"] as const) {
      it(`${plan}, ${range}: cards, formats and CSV rows`, async () => {
        const { id, cookie } = users[plan]!;
        const expected = await sqlFigures(id, rangeStart(range, Date.now()));
        const res = await get(`/analytics?range=${range}`, { cookie });
        expect(res.status).toBe(200);
        const html = await res.text();
        expect(html).not.toContain("part of the Advanced plan");
        expect(stat(html, "stat-clips")).toBe(expected.clips.toLocaleString("en-US"));
        expect(stat(html, "stat-credits")).toBe(expected.credits.toLocaleString("en-US"));
        expect(stat(html, "stat-minutes")).toBe(String(Math.round((expected.seconds / 60) * 10) / 10));
        const avg = Math.round(expected.seconds / expected.clips);
        expect(stat(html, "stat-average")).toBe(`${Math.floor(avg / 60)}:${String(avg % 60).padStart(2, "0")}`);
        // The clips-over-time chart's table: its buckets add up to the same count.
        const chart = html.slice(html.indexOf('data-testid="clips-chart"'));
        const cells = chart.slice(0, chart.indexOf("</figure>")).matchAll(/<td>([\d,]+)<\/td>/g);
        expect([...cells].reduce((sum, m) => sum + Number(m[1]!.replace(/,/g, "")), 0)).toBe(expected.clips);
        for (const f of expected.formats) {
          // The screen-reader table of the formats chart: <th scope="row">MP4</th><td>3</td>
          expect(html).toMatch(new RegExp(`<th scope="row">${f.format}</th><td>${f.n}</td>`, "i"));
        }

        const csv = await get(`/analytics/export?range=${range}`, { cookie });
        expect(csv.status).toBe(200);
        expect(csv.headers.get("Content-Type")).toContain("text/csv");
        const rows = parseCsv(await csv.text());
        expect(rows.length - 1).toBe(expected.clips);
        expect(rows.slice(1).reduce((sum, r) => sum + Number(r[8]), 0)).toBe(expected.credits);
      });
    }
  }

  it("never counts another creator's clips", async () => {
    const res = await get("/analytics?range=all", { cookie: users.Pro!.cookie });
    const expected = await sqlFigures(users.Pro!.id, 0);
    const everyone = await env.DB.prepare("SELECT count(*) AS n FROM clips").first<{ n: number }>();
    expect(everyone!.n).toBeGreaterThan(expected.clips);
    expect(stat(await res.text(), "stat-clips")).toBe(String(expected.clips));
  });

  it("a bad range falls back to the last 30 days", async () => {
    const { id, cookie } = users.Advanced!;
    const html = await (await get("/analytics?range=forever", { cookie })).text();
    expect(stat(html, "stat-clips")).toBe(String((await sqlFigures(id, rangeStart("30d", Date.now()))).clips));
  });
});
