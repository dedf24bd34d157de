import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ClipError } from "../src/errors";
import { checkApiBase, isPrivateAddress, pinnedGet, type Resolver } from "../src/source/net-guard";
import { newPairingToken } from "../src/host/config";
import { startRangeProxy } from "../src/source/range-proxy";
import { allowedOrigins } from "../src/host/security";
import { createCompanionServer, type CompanionServer } from "../src/host/server";
import { resolveSource } from "../src/source/source";
import { call, waitForJob } from "./client";
import { startFakeApi, type FakeApi } from "./fake-api";
import { tempDir, tools } from "./helpers";
import { fakeYtDlp } from "./ytdlp-fixture";
import { startRangeServer, type RangeServer } from "./range-server";

const refused = (source: string, options: Parameters<typeof resolveSource>[2] = {}) =>
  resolveSource(tools, source, options).then(
    () => null,
    (e: unknown) => (e instanceof ClipError ? e.code : String(e)),
  );

describe("sources may not reach this computer or the local network (SSRF)", () => {
  it("classifies addresses", () => {
    for (const a of [
      "127.0.0.1",
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "::1",
      "fe80::1",
      "fd00::1",
      "::ffff:127.0.0.1",
      "::ffff:192.168.0.1",
      "::ffff:7f00:1",
      // IPv4 inside IPv6: IPv4-compatible, NAT64 and 6to4 forms of loopback and private addresses.
      "::7f00:1",
      "::127.0.0.1",
      "::a9fe:a9fe",
      "64:ff9b::7f00:1",
      "64:ff9b::192.168.1.1",
      "64:ff9b::a9fe:a9fe",
      "2002:7f00:1::",
      "2002:c0a8:101::1",
      "2002:a00:1:0:0:0:0:1",
    ])
      expect(isPrivateAddress(a), a).toBe(true);
    for (const a of [
      "8.8.8.8",
      "142.250.74.46",
      "2607:f8b0:4004:800::200e",
      "::ffff:8.8.8.8",
      "64:ff9b::808:808",
      "2002:808:808::1",
    ])
      expect(isPrivateAddress(a), a).toBe(false);
  });

  it("refuses loopback, private, link-local and metadata URLs, localhost names and file: sources", async () => {
    for (const url of [
      "http://127.0.0.1:8820/a.mp4",
      "http://[::1]/a.mp4",
      "http://192.168.1.1/router.mp4",
      "http://169.254.169.254/latest/meta-data/",
      "http://10.0.0.5/x",
      "http://localhost:8820/a.mp4",
      "http://app.localhost/a.mp4",
      "http://2130706433/a.mp4", // 127.0.0.1 written as a number
    ])
      expect(await refused(url), url).toBe("source_not_allowed");
    expect(await refused("file:///etc/passwd")).toBe("invalid_source");
    expect(await refused("http://user:pw@example.com/a.mp4")).toBe("invalid_source");
    expect(await refused("/etc/passwd", { allowLocalFiles: false })).toBe("source_not_allowed");
  });

  it("checks the media URLs yt-dlp returns too", async () => {
    const yt = fakeYtDlp({
      id: "x",
      title: "x",
      duration: 10,
      formats: [
        {
          format_id: "18",
          url: "http://169.254.169.254/latest",
          ext: "mp4",
          vcodec: "avc1",
          acodec: "mp4a",
          height: 360,
        },
      ],
    });
    const error = await resolveSource(yt.tools, "https://www.youtube.com/watch?v=x", { height: 360 }).catch(
      (e: unknown) => e,
    );
    expect((error as ClipError).code).toBe("source_not_allowed");
  });

  it("the API base must be https except on loopback", () => {
    expect(checkApiBase("https://clipcut.example/")).toBe("https://clipcut.example");
    expect(checkApiBase("http://localhost:8787")).toBe("http://localhost:8787");
    expect(checkApiBase("http://127.0.0.1:8787")).toBe("http://127.0.0.1:8787");
    expect(() => checkApiBase("http://clipcut.example")).toThrow(/https/);
    expect(() => checkApiBase("http://192.168.1.10:8787")).toThrow(/https/);
    expect(() => checkApiBase("ftp://clipcut.example")).toThrow(/https/);
  });
});

describe("a server started without --allow-private-sources", () => {
  let api: FakeApi;
  let companion: CompanionServer;
  let port: number;
  const token = newPairingToken();
  beforeAll(async () => {
    api = await startFakeApi([{ token: "tok-safety-1234", plan: "Pro", balance: 10_000 }]);
    companion = createCompanionServer({
      tools,
      toolVersions: { ffmpeg: "ffmpeg", ytDlp: null },
      outputDir: tempDir(),
      pairingToken: token,
      allowedOrigins: allowedOrigins(),
      apiBaseUrl: api.baseUrl,
    });
    port = await companion.listen(0);
  });
  afterAll(async () => {
    await companion.close();
    await api.close();
  });

  it("fails jobs on local files and loopback URLs without reserving credits, and refuses an http API base", async () => {
    const bad = await call(port, token, "PUT", "/session", {
      body: { apiToken: "tok-safety-1234", apiBaseUrl: "http://clipcut.example" },
    });
    expect(bad.status).toBe(422);
    expect((bad.body as { error: { message: string } }).error.message).toMatch(/https/);
    expect((await call(port, token, "PUT", "/session", { body: { apiToken: "tok-safety-1234" } })).status).toBe(200);
    for (const source of ["/etc/hostname", `http://127.0.0.1:${port}/health`]) {
      const body = { source, videoUrl: "https://www.youtube.com/watch?v=clipcut-test", startSeconds: 0, endSeconds: 2 };
      const reply = await call(port, token, "POST", "/jobs", { body });
      const job = await waitForJob(port, token, (reply.body as { job: { id: string } }).job.id);
      expect(job.status).toBe("failed");
      expect(job.error?.code).toBe("source_not_allowed");
      expect(job.error?.message).toMatch(/--allow-private-sources/);
    }
    expect(api.calls.filter((c) => c.path.endsWith("/holds"))).toEqual([]);
  });
});

describe("DNS rebinding: the range proxy connects to the address the guard checked", () => {
  let media: RangeServer;
  beforeAll(async () => {
    media = await startRangeServer(inject("mediaDir"));
  });
  afterAll(() => media.close());
  const onHost = (host: string) => media.url("src360.mp4").replace("127.0.0.1", host);

  it("uses the checked answer for the connection, not a second lookup", async () => {
    // The system resolver cannot find *.test names: the request only works through the answer that was checked.
    let asked = 0;
    const resolve: Resolver = async () => (asked++, [{ address: "127.0.0.1", family: 4 }]);
    const res = await pinnedGet(onHost("media.rebind.test"), {
      headers: { Range: "bytes=0-9" },
      signal: AbortSignal.timeout(5000),
      allowPrivate: true,
      resolve,
    });
    res.resume();
    expect(res.statusCode).toBe(206);
    expect(asked).toBe(1);
  });

  it("looks the origin's host up once for all of ffmpeg's requests through one proxy", async () => {
    let asked = 0;
    const resolve: Resolver = async () => (asked++, [{ address: "127.0.0.1", family: 4 }]);
    const url = onHost("media.rebind.test");
    const proxy = await startRangeProxy({
      ...{ kind: "http", url, headers: {}, title: "src360", original: url },
      guard: { allowPrivate: true, resolve },
    });
    try {
      const sizeCheck = asked; // the origin's size, read before the proxy serves
      for (const range of ["bytes=0-999", "bytes=200000-200999", "bytes=50000-50999"]) {
        const res = await fetch(proxy.input.url, { headers: { Range: range } });
        expect(res.status).toBe(206);
        expect((await res.arrayBuffer()).byteLength).toBe(1000);
      }
      expect(asked - sizeCheck).toBe(1);
    } finally {
      await proxy.close();
    }
  });

  it("a kept-alive socket opened for one answer never carries a request checked at another", async () => {
    const url = onHost("pool.rebind.test");
    const first = await pinnedGet(url, {
      headers: { Range: "bytes=0-9" },
      signal: AbortSignal.timeout(5000),
      allowPrivate: true,
      resolve: async () => [{ address: "127.0.0.1", family: 4 }],
    });
    expect(first.statusCode).toBe(206);
    await new Promise((done) => first.resume().on("end", done));
    await new Promise((done) => setTimeout(done, 20)); // the socket back in the pool
    media.reset();
    const outcome = await pinnedGet(url, {
      headers: { Range: "bytes=0-9" },
      signal: AbortSignal.timeout(1500),
      allowPrivate: false,
      resolve: async () => [{ address: "203.0.113.9", family: 4 }],
    }).then(
      (res) => (res.resume(), `answered ${res.statusCode}`),
      () => "no connection",
    );
    expect(outcome).toBe("no connection");
    expect(media.requests()).toBe(0);
  });

  it("a name that answers public for the check and loopback afterwards never reaches this computer", async () => {
    const answers = ["203.0.113.9", "127.0.0.1"];
    let asked = 0;
    const resolve: Resolver = async () => [{ address: answers[Math.min(asked++, 1)]!, family: 4 }];
    media.reset();
    const outcome = await pinnedGet(onHost("media.rebind.test"), {
      headers: { Range: "bytes=0-9" },
      signal: AbortSignal.timeout(1500),
      allowPrivate: false,
      resolve,
    }).then(
      (res) => (res.resume(), `answered ${res.statusCode}`),
      () => "no connection",
    );
    expect(outcome).toBe("no connection");
    expect(asked).toBe(1);
    expect(media.requests()).toBe(0);
    // And a loopback answer at check time is refused outright.
    const loopback: Resolver = async () => [{ address: "127.0.0.1", family: 4 }];
    await expect(
      pinnedGet(onHost("media.rebind.test"), {
        headers: {},
        signal: AbortSignal.timeout(1500),
        allowPrivate: false,
        resolve: loopback,
      }),
    ).rejects.toMatchObject({ code: "source_not_allowed" });
  });
});
