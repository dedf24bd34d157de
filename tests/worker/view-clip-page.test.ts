import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MESSAGES } from "~/domain/messages";
import { get, insertUser, signIn } from "./helpers";

const PASSWORD = "view clip passphrase";

async function clipPage(email: string, videoUrl: string) {
  const userId = await insertUser({ email, password: PASSWORD });
  const clipId = crypto.randomUUID();
  // Stored as is: older rows predate the URL rule, so the page must cope with any text.
  await env.DB.prepare(
    "INSERT INTO clips (id, user_id, payer_id, name, video_url, start_time_seconds, end_time_seconds, cost) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
  )
    .bind(clipId, userId, userId, "Keynote cut", videoUrl, 5, 20, 1)
    .run();
  const res = await get(`/view-clip/${clipId}`, { cookie: await signIn(email, PASSWORD) });
  expect(res.status).toBe(200);
  return { clipId, html: await res.text(), csp: res.headers.get("Content-Security-Policy") ?? "" };
}

describe("/view-clip/{id}", () => {
  it("plays a direct https media link in a video player, at the clip's range, and the CSP lets it", async () => {
    const { html, csp } = await clipPage("direct-media@example.com", "https://media.example.com/talks/keynote.mp4");
    expect(html).toMatch(/<video[^>]*src="https:\/\/media\.example\.com\/talks\/keynote\.mp4#t=5,20"[^>]*controls/);
    expect(html).not.toContain(MESSAGES.invalidClipVideoUrl);
    expect(csp).toMatch(/media-src 'self' https:( http:)?(;|$)/);
  });

  it("keeps the YouTube player for YouTube links", async () => {
    const { html } = await clipPage("youtube-clip@example.com", "https://www.youtube.com/watch?v=dQw4w9WgXcQ");
    expect(html).toMatch(/<iframe[^>]*src="https:\/\/www\.youtube(-nocookie)?\.com\/embed\/dQw4w9WgXcQ/);
    expect(html).not.toContain("<video");
  });

  it("says the spec's words when the link has no clip id, or names a clip that is not the creator's", async () => {
    // Another creator's clip: its owner sees it, this creator is told it is not there.
    const { clipId: othersClip, html: ownersView } = await clipPage(
      "owner-clip@example.com",
      "https://media.example.com/a.mp4",
    );
    expect(ownersView).toContain("media.example.com/a.mp4");
    await insertUser({ email: "other-viewer@example.com", password: PASSWORD });
    const cookie = await signIn("other-viewer@example.com", PASSWORD);
    expect(await (await get("/view-clip", { cookie })).text()).toContain("No clip ID provided.");
    for (const id of [crypto.randomUUID(), othersClip]) {
      const res = await get(`/view-clip/${id}`, { cookie });
      expect(res.status).toBe(404);
      const html = await res.text();
      expect(html).toContain("Could not find the requested clip. It may have been deleted.");
      expect(html).not.toContain("media.example.com/a.mp4");
    }
  });

  it("says the video URL is invalid for a link that is not http(s)", async () => {
    const { html } = await clipPage("ftp-clip@example.com", "ftp://files.example.com/keynote.mp4");
    expect(html).toContain(MESSAGES.invalidClipVideoUrl);
    // The spec's words, written out: a changed character in the app fails here, not only a changed constant.
    expect(html).toContain("The video URL associated with this clip is invalid.");
    expect(html).not.toContain("<video");
  });
});
