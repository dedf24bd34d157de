import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, inject, it } from "vitest";
import { parseSrt } from "../../../app/domain/captions";
import { cutResultSchema } from "../../../app/domain/companion";
import { BIN, BUILT_CLI, runBuiltCli } from "./cli-process";
import { tempDir } from "./helpers";
import { startRangeServer } from "./range-server";
import { fakeYtDlp } from "./ytdlp-fixture";

const dir = inject("mediaDir");

it("cut prints the achieved clip as JSON on its last line", async () => {
  const out = join(tempDir(), "my clip.mp4");
  const { code, stdout, stderr } = await runBuiltCli([
    "cut",
    join(dir, "src360.mp4"),
    "--start",
    "0:10.5",
    "--end",
    "0:14",
    "--out",
    out,
  ]);
  expect(stderr).toBe("");
  expect(code).toBe(0);
  const last = stdout.trim().split("\n").pop()!;
  const result = cutResultSchema.parse(JSON.parse(last));
  expect(result.output).toBe(out);
  expect(existsSync(out)).toBe(true);
  expect(result.strategy).toBe("smart");
  expect(result.startSeconds).toBeCloseTo(10.5, 6);
  expect(result.durationSeconds).toBeCloseTo(3.5, 6);
});

it("cut copies in-process from the file's index, with no staging run, and leaves no work folder", async () => {
  const tmp = tempDir("clipcut-cli-tmp-");
  const out = join(tempDir(), "copy.mp4");
  const args = ["cut", join(dir, "src360.mp4"), "--start", "10", "--end", "14", "--strategy", "copy", "--out", out];
  const { code, stderr } = await runBuiltCli(args, { CLIPCUT_TRACE: "1", TMPDIR: tmp });
  expect(code).toBe(0);
  expect(stderr).toMatch(/\[clipcut trace\] cut copy .*copy \(in-process\)/);
  expect(stderr).not.toMatch(/[:|] stage/);
  expect(existsSync(out)).toBe(true);
  // (tsx keeps its own cache there.)
  expect(readdirSync(tmp).filter((name) => name.startsWith("clipcut-"))).toEqual([]);
});

it("a page URL is resolved beside yt-dlp's --version: an old yt-dlp's warning still reaches a failed resolve", async () => {
  const yt = fakeYtDlp({ error: "unavailable", version: "2024.01.01" });
  const page = "https://www.youtube.com/watch?v=dQw4w9WgXcQ";
  const { code, stderr } = await runBuiltCli(["cut", page, "--start", "1", "--end", "2"], yt.env);
  expect(code).toBe(1);
  expect(stderr).toMatch(/Warning: .*yt-dlp/);
  // The failure names the likely cause: the old yt-dlp.
  expect(stderr).toMatch(/^Error: .*yt-dlp 2024\.01\.01 is \d+ days old/m);
  expect(yt.calls().filter((argv) => argv.includes("--version"))).toHaveLength(1);
});

it("yt-dlp reads no option file: a yt-dlp.conf in the working folder or the user's config runs nothing", async () => {
  const yt = fakeYtDlp({ id: "dQw4w9WgXcQ", title: "x", duration: 10, formats: [] });
  const work = tempDir("clipcut-cwd-");
  const config = tempDir("clipcut-xdg-");
  const planted = (where: string) => join(work, `ran-from-${where}`);
  writeFileSync(join(work, "yt-dlp.conf"), `--exec "touch '${planted("cwd")}'"\n`);
  mkdirSync(join(config, "yt-dlp"));
  writeFileSync(join(config, "yt-dlp", "config"), `--exec 'pre_process:touch ${planted("user")}'\n`);
  const page = "https://www.youtube.com/watch?v=dQw4w9WgXcQ";
  const { code } = await runBuiltCli(
    ["cut", page, "--start", "1", "--end", "2"],
    { ...yt.env, XDG_CONFIG_HOME: config },
    work,
  );
  expect(code).toBe(1);
  expect(existsSync(planted("cwd"))).toBe(false);
  expect(existsSync(planted("user"))).toBe(false);
  // The version run and the resolve both started, and neither read a file.
  const calls = yt.calls();
  expect(calls.filter((argv) => argv.includes("--version"))).toHaveLength(1);
  expect(calls.filter((argv) => argv.includes("-J"))).toHaveLength(1);
  for (const argv of calls) expect(argv).toContain("--ignore-config");
});

it("a page URL without yt-dlp says what to install", async () => {
  const page = "https://www.youtube.com/watch?v=dQw4w9WgXcQ";
  const { code, stderr } = await runBuiltCli(["cut", page, "--start", "1", "--end", "2"], {
    CLIPCUT_YTDLP: "/nonexistent/yt-dlp",
  });
  expect(code).toBe(1);
  expect(stderr).toMatch(/not a media file/);
  expect(stderr).toMatch(/sudo apt install yt-dlp/);
});

it("a file cut asks no tool for its version: ffmpeg and ffprobe are checked only when a run fails", async () => {
  const yt = fakeYtDlp({ error: "private" });
  const out = join(tempDir(), "quiet.mp4");
  const args = ["cut", join(dir, "src360.mp4"), "--start", "10", "--end", "12", "--strategy", "copy", "--out", out];
  const { code } = await runBuiltCli(args, yt.env);
  expect(code).toBe(0);
  // yt-dlp stands in for every tool here: the old start-up check ran its --version on every cut.
  expect(yt.calls()).toEqual([]);
});

it("cut takes the panel's aspect, crop position and captions: a page's English track beside a 9:16 box at the left", async () => {
  const subs = tempDir("clipcut-cli-subs-");
  writeFileSync(join(subs, "en.vtt"), "WEBVTT\n\n00:00:10.000 --> 00:00:11.000\nHello there\n");
  const [media, captions] = await Promise.all([startRangeServer(dir), startRangeServer(subs)]);
  try {
    const yt = fakeYtDlp({
      id: "cliShorts01",
      title: "CLI shorts",
      duration: 60,
      formats: [
        {
          format_id: "18",
          url: media.url("src360.mp4"),
          ext: "mp4",
          protocol: "https",
          vcodec: "avc1.42001E",
          acodec: "mp4a.40.2",
          width: 640,
          height: 360,
        },
      ],
      subtitles: { en: [{ ext: "vtt", url: captions.url("en.vtt"), name: "English" }] },
    });
    const folder = tempDir();
    const out = join(folder, "short.mp4");
    const page = "https://www.youtube.com/watch?v=cliShorts01";
    const { code, stdout, stderr } = await runBuiltCli(
      [
        ...["cut", page, "--start", "9.5", "--end", "11.5", "--aspect", "9:16", "--crop-position", "0"],
        ...["--captions", "en", "--captions-mode", "soft", "--srt", "--allow-private-sources", "--out", out],
      ],
      yt.env,
    );
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const result = cutResultSchema.parse(JSON.parse(stdout.trim().split("\n").pop()!));
    // The rule's box of a 640x360 frame in 9:16 at the left edge: 202x360 from column 0.
    expect([result.width, result.height, result.reason]).toEqual([202, 360, "re-encoded for the crop"]);
    const probe = spawnSync("ffprobe", [
      "-v",
      "error",
      "-show_entries",
      "stream=codec_type,codec_name",
      "-of",
      "csv=p=0",
      out,
    ]);
    expect(probe.stdout.toString().trim().split("\n")).toEqual(["h264,video", "aac,audio", "mov_text,subtitle"]);
    // The cue from 10 s to 11 s on the clip's clock: its first frame is the one shown at 9.5 s (frame 285 at 30 fps).
    expect(result.startSeconds).toBeCloseTo(9.5, 6);
    const srt = parseSrt(readFileSync(join(folder, "short.srt"), "utf8"));
    expect(srt.map((c) => [c.start, c.end, c.text])).toEqual([[0.5, 1.5, "Hello there"]]);
  } finally {
    await Promise.all([media.close(), captions.close()]);
  }
});

it("cut refuses a bad aspect, crop position or captions with the panel's rule, before reading the source", async () => {
  const cwd = tempDir("clipcut-cli-bad-");
  const source = join(dir, "src360.mp4");
  for (const [flags, message] of [
    [["--aspect", "16:9"], /--aspect must be one of: original, 9:16, 1:1, 4:5/],
    [["--aspect", "9:16", "--crop-position", "1.5"], /--crop-position: .*from 0 \(left edge\) to 1 \(right edge\)/],
    [["--crop-position", "0.3"], /--aspect: A crop needs an aspect other than Original/],
    [["--captions", "en US"], /--captions: Caption track must be a language code/],
    [["--captions", "en", "--captions-mode", "soft", "--format", "avi"], /--captions: A subtitle track needs MP4/],
    [["--captions-mode", "soft"], /--captions-mode needs --captions <track>/],
  ] as const) {
    const { code, stdout, stderr } = await runBuiltCli(
      ["cut", source, "--start", "1", "--end", "2", ...flags],
      {},
      cwd,
    );
    expect({ flags, code, stdout }).toEqual({ flags, code: 2, stdout: "" });
    expect(stderr).toMatch(message);
  }
  // Nothing was written.
  expect(readdirSync(cwd)).toEqual([]);
});

it("rejects bad arguments with a usage message", async () => {
  const bad = await runBuiltCli(["cut", join(dir, "src360.mp4"), "--start", "1:99", "--end", "5"]);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toMatch(/--start: not a time/);
  const help = await runBuiltCli(["--help"]);
  expect(help.code).toBe(0);
  expect(help.stdout).toMatch(/cut <source> --start <time> --end <time>/);
});

/** Runs the CLI until it exits, or until it says it is listening (then stops it). */
function runUntilListening(args: string[]) {
  return new Promise<{ code: number | null; output: string; listened: boolean }>((resolve) => {
    const env = { ...process.env, CLIPCUT_COMPANION_CONFIG_DIR: tempDir("clipcut-config-") };
    const child = spawn(process.execPath, [...BUILT_CLI, ...args], { env });
    let output = "";
    let listened = false;
    const read = (d: Buffer) => {
      output += d.toString();
      if (!listened && /listening on/.test(output)) {
        listened = true;
        child.kill("SIGTERM");
      }
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.on("close", (code) => resolve({ code, output, listened }));
  });
}

it("no command but serve opens a port: without one it says what to run", async () => {
  const bare = await runUntilListening([]);
  expect(bare.listened).toBe(false);
  expect(bare.code).toBe(2);
  expect(bare.output).toContain("clipcut-companion install");
  expect(bare.output).toContain("clipcut-companion serve");
  // serve's options alone do not start it either.
  const options = await runUntilListening(["--port", "0"]);
  expect(options.listened).toBe(false);
  expect(options.code).toBe(2);
  expect(options.output).toContain("serve --port");
});

it("says exactly what to install when ffmpeg is missing", async () => {
  const missing = await runBuiltCli(["cut", join(dir, "src360.mp4"), "--start", "1", "--end", "2"], {
    CLIPCUT_FFMPEG: "/nonexistent/ffmpeg",
  });
  expect(missing.code).toBe(1);
  expect(missing.stderr).toMatch(/ffmpeg not found/);
  expect(missing.stderr).toMatch(/sudo apt install ffmpeg/);
  expect(missing.stderr).toMatch(/brew install ffmpeg/);
});

it("the clipcut-companion bin launches the CLI", () => {
  const res = spawnSync(process.execPath, [BIN, "--version"]);
  expect(res.status).toBe(0);
  expect(res.stdout.toString().trim()).toMatch(/^\d+\.\d+\.\d+$/);
});

it("a page URL starts yt-dlp once for its version (the tools check) and once to resolve, not a second --version", async () => {
  const yt = fakeYtDlp({ error: "private" });
  const { code, stderr } = await runBuiltCli(
    ["cut", "https://www.youtube.com/watch?v=dQw4w9WgXcQ", "--start", "1", "--end", "2"],
    yt.env,
  );
  expect(code).toBe(1);
  expect(stderr).toMatch(/private/);
  const calls = yt.calls();
  expect(calls.filter((argv) => argv.includes("--version"))).toHaveLength(1);
  expect(calls.filter((argv) => argv.includes("-J"))).toHaveLength(1);
});
