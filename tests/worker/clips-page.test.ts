import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { CLIPS_CSV_HEADER, CLIPS_PAGE_SIZE } from "~/domain/clips-list";
import { parseCsv } from "~/domain/csv";
import { get, insertUser, ORIGIN, sessionFor } from "./helpers";

const DAY = 86_400_000;
/** Alice's 25 dated clips: one a day back from June 30, 2025, at noon UTC (8:00 in New York, her zone). */
const JUNE_30 = Date.UTC(2025, 5, 30, 12);
const ALICE_DAILY = 25;

interface Person {
  id: string;
  email: string;
  cookie: string;
}
const people: Record<"alice" | "bob" | "owner" | "member", Person> = {} as never;
/** Every clip of the file, by name: id, maker, creation time. */
const clipIds = new Map<string, string>();

async function person(key: keyof typeof people, opts: { plan?: string; fullName: string; timeZone?: string }) {
  const email = `clips-${key}@example.com`;
  const id = await insertUser({ email, plan: opts.plan });
  await env.DB.prepare("UPDATE users SET full_name = ?, time_zone = ? WHERE id = ?")
    .bind(opts.fullName, opts.timeZone ?? null, id)
    .run();
  people[key] = { id, email, cookie: "" };
}

function clip(
  name: string,
  userId: string,
  createdAt: number,
  opts: { payerId?: string; format?: string; videoUrl?: string } = {},
) {
  const id = `clip-${clipIds.size}-${crypto.randomUUID().slice(0, 8)}`;
  clipIds.set(name, id);
  return env.DB.prepare(
    "INSERT INTO clips (id, user_id, payer_id, name, video_url, start_time_seconds, end_time_seconds, format, quality, cost, status, source, created_at) VALUES (?, ?, ?, ?, ?, 5, 35, ?, '720p', 3, 'Completed', 'seed', ?)",
  ).bind(
    id,
    userId,
    opts.payerId ?? userId,
    name,
    opts.videoUrl ?? "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
    opts.format ?? "mp4",
    createdAt,
  );
}

const aliceName = (i: number) => `Alice clip ${String(i).padStart(2, "0")}`;
const ALICE_FORMATS = ["mp4", "mp3", "gif"];

beforeAll(async () => {
  await person("alice", { fullName: "Alice Able", timeZone: "America/New_York" });
  await person("bob", { fullName: "Bob Other" });
  await person("owner", { fullName: "Olive Owner", plan: "Pro" });
  await person("member", { fullName: "Morgan Member" });
  const { alice, bob, owner, member } = people;
  const joined = Date.UTC(2025, 3, 1);
  await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO team_members (member_id, owner_id, role, joined_at) VALUES (?1, ?1, 'owner', ?3), (?2, ?1, 'member', ?3)",
    ).bind(owner.id, member.id, joined),
    ...Array.from({ length: ALICE_DAILY }, (_, i) =>
      clip(aliceName(i), alice.id, JUNE_30 - i * DAY, {
        format: ALICE_FORMATS[i % 3],
        videoUrl: i % 2 ? `https://cdn.example.com/talks/keynote-${i}.mp4` : undefined,
      }),
    ),
    // Around New York's midnight on March 10, 2025 (EDT, UTC-4): 23:00 on the 9th there, and 01:00 on the 10th.
    clip("Late night edit", alice.id, Date.parse("2025-03-10T03:00:00Z")),
    clip("Early bird edit", alice.id, Date.parse("2025-03-10T05:00:00Z")),
    // LIKE's wildcard in a search is a plain character.
    clip("100% done", alice.id, Date.UTC(2025, 0, 2, 12)),
    clip("1000 views", alice.id, Date.UTC(2025, 0, 1, 12)),
    // Another person's clips, one from the same source as Alice's: never on her list.
    clip("Bob secret", bob.id, JUNE_30 - 3 * DAY, { videoUrl: "https://cdn.example.com/talks/keynote-3.mp4" }),
    clip("Bob mp3 secret", bob.id, JUNE_30, { format: "mp3" }),
    // The team: the owner's clip, the member's clip paid by the team, and the member's own from before joining.
    clip("Owner reel", owner.id, Date.UTC(2025, 4, 10, 12)),
    clip("Member team cut", member.id, Date.UTC(2025, 4, 11, 12), { payerId: owner.id }),
    clip("Member solo cut", member.id, Date.UTC(2025, 2, 1, 12)),
  ]);
  for (const p of Object.values(people)) p.cookie = await sessionFor(p.id);
});

/** The clips a page lists, in order: the ids its rows link to (/view-clip/{id}). */
async function listed(path: string, who: Person): Promise<string[]> {
  const res = await get(path, { cookie: who.cookie });
  expect(res.status, path).toBe(200);
  return idsIn(await res.text());
}
function idsIn(html: string): string[] {
  const table = html.slice(html.indexOf('data-testid="clips-table"'), html.indexOf("</table>"));
  return [...table.matchAll(/href="\/view-clip\/([^"]+)"/g)].map((m) => m[1]!);
}
const ids = (...names: string[]) => names.map((n) => clipIds.get(n)!);
/** Alice's clips as SQL orders them, newest first. */
async function aliceInSql(where = "1", ...binds: unknown[]): Promise<string[]> {
  const rows = await env.DB.prepare(
    `SELECT id FROM clips WHERE user_id = ? AND (${where}) ORDER BY created_at DESC, id DESC`,
  )
    .bind(people.alice.id, ...binds)
    .all<{ id: string }>();
  return rows.results.map((r) => r.id);
}

describe("/clips: whose clips", () => {
  it("a creator sees their own clips, newest first, each linking to its view page; another user's never", async () => {
    const res = await get("/clips", { cookie: people.alice.cookie });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("<h1");
    expect(html).toContain("All clips");
    const first = idsIn(html);
    expect(first).toEqual((await aliceInSql()).slice(0, CLIPS_PAGE_SIZE));
    expect(html).not.toContain("Bob");
    expect(html).not.toContain("Made by");
    // Table semantics: a caption and column headers.
    expect(html).toMatch(/<caption[^>]*>Your clips<\/caption>/);
    expect(html).toMatch(/<th scope="col"[^>]*>Clip<\/th>/);
    // Another person's clip is not found on its view page either.
    expect((await get(`/view-clip/${clipIds.get("Bob secret")}`, { cookie: people.alice.cookie })).status).toBe(404);
  });

  it("a team owner sees their clips and the clips the team paid for, with who made them", async () => {
    const res = await get("/clips", { cookie: people.owner.cookie });
    const html = await res.text();
    expect(idsIn(html)).toEqual(ids("Member team cut", "Owner reel"));
    expect(html).toContain("Made by");
    expect(html).toContain("Morgan Member");
    // The member's clip from before the team was not paid by it: not the owner's to see.
    expect(html).not.toContain("Member solo cut");
    // Each row's link opens: the owner may view the member's team clip, and it says who made it.
    const view = await get(`/view-clip/${clipIds.get("Member team cut")}`, { cookie: people.owner.cookie });
    expect(view.status).toBe(200);
    expect(await view.text()).toContain("Morgan Member");
    expect((await get(`/view-clip/${clipIds.get("Member solo cut")}`, { cookie: people.owner.cookie })).status).toBe(
      404,
    );
  });

  it("a team member sees only their own clips, not the owner's", async () => {
    expect(await listed("/clips", people.member)).toEqual(ids("Member team cut", "Member solo cut"));
    const html = await (await get("/clips", { cookie: people.member.cookie })).text();
    expect(html).not.toContain("Owner reel");
    expect(html).not.toContain("Made by");
    expect((await get(`/view-clip/${clipIds.get("Owner reel")}`, { cookie: people.member.cookie })).status).toBe(404);
  });

  it("a person with no clips sees the empty state", async () => {
    const html = await (await get("/clips", { cookie: people.bob.cookie })).text();
    expect(idsIn(html)).toEqual(ids("Bob mp3 secret", "Bob secret"));
    await env.DB.prepare("DELETE FROM clips WHERE user_id = ?").bind(people.bob.id).run();
    const empty = await (await get("/clips", { cookie: people.bob.cookie })).text();
    expect(empty).toContain('data-testid="clips-empty"');
    expect(empty).toContain("No clips created yet");
  });
});

describe("/clips: search, filters, pages", () => {
  it("searches clip names, ignoring case", async () => {
    expect(await listed("/clips?q=ALICE+CLIP+0", people.alice)).toEqual(
      ids(...[0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map(aliceName)),
    );
  });

  it("searches sources (the video link), never another person's clips from the same source", async () => {
    const found = await listed("/clips?q=talks%2Fkeynote", people.alice);
    expect(found).toEqual(await aliceInSql("video_url LIKE '%keynote%'"));
    expect(found).toHaveLength(12);
    expect(found).not.toContain(clipIds.get("Bob secret"));
  });

  it("takes % in a search literally", async () => {
    expect(await listed("/clips?q=100%25", people.alice)).toEqual(ids("100% done"));
  });

  it("filters by format", async () => {
    const mp3 = await listed("/clips?format=mp3", people.alice);
    expect(mp3).toEqual(await aliceInSql("format = 'mp3'"));
    expect(mp3.length).toBeGreaterThan(0);
    // Search and format together.
    expect(await listed("/clips?format=gif&q=keynote", people.alice)).toEqual(
      await aliceInSql("format = 'gif' AND video_url LIKE '%keynote%'"),
    );
  });

  it("filters by date range, both ends inclusive", async () => {
    // June 21 to June 25: i = 5..9.
    expect(await listed("/clips?from=2025-06-21&to=2025-06-25", people.alice)).toEqual(
      ids(...[5, 6, 7, 8, 9].map(aliceName)),
    );
    expect(await listed("/clips?from=2025-06-29", people.alice)).toEqual(ids(aliceName(0), aliceName(1)));
    expect(await listed("/clips?to=2025-01-01", people.alice)).toEqual(ids("1000 views"));
  });

  it("reads the dates as days in the creator's time zone", async () => {
    // 03:00 UTC on March 10 is still March 9 in New York, Alice's zone.
    expect(await listed("/clips?from=2025-03-10&to=2025-03-10", people.alice)).toEqual(ids("Early bird edit"));
    expect(await listed("/clips?from=2025-03-09&to=2025-03-09", people.alice)).toEqual(ids("Late night edit"));
  });

  it("pages through every clip once, in order, with the list kit's pager", async () => {
    const all = await aliceInSql();
    expect(all.length).toBe(29);
    const res = await get("/clips", { cookie: people.alice.cookie });
    const html = await res.text();
    expect(html).toContain(`Showing 1 to ${CLIPS_PAGE_SIZE} of 29 results`);
    expect(html).toContain('href="/clips?page=2"');
    const second = await (await get("/clips?page=2", { cookie: people.alice.cookie })).text();
    expect(second).toContain(`Showing ${CLIPS_PAGE_SIZE + 1} to 29 of 29 results`);
    expect([...idsIn(html), ...idsIn(second)]).toEqual(all);
    // A filter counts and pages what it matches, and stays in the pager's links.
    const gifs = (await aliceInSql("format = 'gif'")).length;
    const filtered = await (await get("/clips?format=gif", { cookie: people.alice.cookie })).text();
    expect(filtered).toContain(`Showing 1 to ${gifs} of ${gifs} results`);
    expect(filtered).not.toContain('href="/clips?page=2"');
    const mp4s = (await aliceInSql("format = 'mp4'")).length;
    expect(mp4s).toBe(13);
    const mp4Page = await (await get("/clips?format=mp4&page=1", { cookie: people.alice.cookie })).text();
    expect(mp4Page).toContain(`of ${mp4s} results`);
    const searched = await (await get("/clips?q=alice", { cookie: people.alice.cookie })).text();
    expect(searched).toContain(`Showing 1 to ${CLIPS_PAGE_SIZE} of ${ALICE_DAILY} results`);
    expect(searched).toContain('href="/clips?q=alice&amp;page=2"');
    expect(await listed("/clips?q=alice&page=2", people.alice)).toEqual(ids(...[20, 21, 22, 23, 24].map(aliceName)));
  });

  it("falls back to defaults on values it cannot read, as the admin lists do; a page past the end goes to the last", async () => {
    const all = await aliceInSql();
    for (const path of [
      "/clips?page=abc",
      "/clips?page=-3",
      "/clips?format=exe",
      "/clips?from=2025-02-30",
      "/clips?to=yesterday",
      `/clips?q=${"x".repeat(300)}`,
      "/clips?q=&format=&from=&to=",
    ]) {
      expect(await listed(path, people.alice), path).toEqual(all.slice(0, CLIPS_PAGE_SIZE));
    }
    const past = await get("/clips?format=mp3&page=40", { cookie: people.alice.cookie });
    expect(past.status).toBe(302);
    expect(past.headers.get("Location")).toBe("/clips?format=mp3");
    const last = await get("/clips?page=9", { cookie: people.alice.cookie });
    expect(last.headers.get("Location")).toBe("/clips?page=2");
  });

  it("the filter form is a labelled GET form that works without JavaScript", async () => {
    const html = await (await get("/clips?format=mp3&from=2025-06-01", { cookie: people.alice.cookie })).text();
    expect(html).toMatch(/<form method="get"/);
    for (const [id, label] of [
      ["clips-q", "Search"],
      ["clips-format", "Format"],
      ["clips-from", "From"],
      ["clips-to", "To"],
    ]) {
      expect(html).toContain(`<label for="${id}" class="label">${label}</label>`);
      expect(html).toContain(`id="${id}"`);
    }
    expect(html).toMatch(/<option value="mp3" selected="">MP3<\/option>/);
    expect(html).toMatch(/id="clips-from"[^>]*value="2025-06-01"/);
  });
});

describe("/clips/export", () => {
  it("exports what the list's filters match, every page, as CSV", async () => {
    const res = await get("/clips/export?format=mp3", { cookie: people.alice.cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("Content-Disposition")).toMatch(/^attachment; filename="[^"]+\.csv"$/);
    const [header, ...rows] = parseCsv(await res.text());
    expect(header).toEqual([...CLIPS_CSV_HEADER]);
    const expected = await env.DB.prepare(
      "SELECT id, name, video_url, created_at FROM clips WHERE user_id = ? AND format = 'mp3' ORDER BY created_at DESC, id DESC",
    )
      .bind(people.alice.id)
      .all<{ name: string; video_url: string; created_at: number }>();
    expect(rows.map((r) => [r[0], r[1], r[2], r[6], r[10]])).toEqual(
      expected.results.map((c) => [new Date(c.created_at).toISOString(), c.name, c.video_url, "mp3", "Alice Able"]),
    );
    expect(rows[0]!.slice(3, 6)).toEqual(["5", "35", "30"]);
  });

  it("every clip with no filters (more than one page), and the team's for an owner", async () => {
    const all = parseCsv(await (await get("/clips/export", { cookie: people.alice.cookie })).text());
    expect(all).toHaveLength(1 + 29);
    expect(all.map((r) => r[1])).not.toContain("Bob secret");
    const team = parseCsv(await (await get("/clips/export", { cookie: people.owner.cookie })).text());
    expect(team.slice(1).map((r) => [r[1], r[10]])).toEqual([
      ["Member team cut", "Morgan Member"],
      ["Owner reel", "Olive Owner"],
    ]);
    const member = parseCsv(await (await get("/clips/export", { cookie: people.member.cookie })).text());
    expect(member.slice(1).map((r) => r[1])).toEqual(["Member team cut", "Member solo cut"]);
  });

  it("the page's Export link carries its filters, not its page", async () => {
    const html = await (await get("/clips?format=mp3&q=alice&page=1", { cookie: people.alice.cookie })).text();
    expect(html).toContain('href="/clips/export?q=alice&amp;format=mp3"');
  });
});

describe("/clips: guard and links", () => {
  it("signed out: the page and the export go to sign-in, and return after", async () => {
    for (const path of ["/clips?format=mp3", "/clips/export"]) {
      const res = await get(path);
      expect(res.status, path).toBe(302);
      const location = new URL(res.headers.get("Location") ?? "", ORIGIN);
      expect(location.pathname).toBe("/signin");
      expect(location.searchParams.get("redirectTo")).toBe(path);
      expect(res.headers.get("Content-Type") ?? "").not.toContain("csv");
    }
  });

  it("the dashboard's Recent Activity and the signed-in navigation link to /clips", async () => {
    const html = await (await get("/dashboard", { cookie: people.alice.cookie })).text();
    const activity = html.slice(html.indexOf('id="activity-title"'));
    expect(activity).toMatch(/<a[^>]*href="\/clips"[^>]*>View all clips<\/a>/);
    expect(html).toMatch(/<nav aria-label="Account"[\s\S]*href="\/clips"[^>]*>Clips<\/a>/);
  });
});
