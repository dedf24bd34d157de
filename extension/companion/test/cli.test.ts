import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, inject, it } from "vitest";
import { cutResultSchema } from "../../../app/domain/companion";
import { BIN, CLI, runCli, TSX } from "./cli-process";
import { tempDir } from "./helpers";
import { fakeYtDlp } from "./ytdlp-fixture";

const dir = inject("mediaDir");

it("cut prints the achieved clip as JSON on its last line", async () => {
  const out = join(tempDir(), "my clip.mp4");
  const { code, stdout, stderr } = await runCli([
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
  const { code, stderr } = await runCli(args, { CLIPCUT_TRACE: "1", TMPDIR: tmp });
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
  const { code, stderr } = await runCli(["cut", page, "--start", "1", "--end", "2"], yt.env);
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
  const { code } = await runCli(
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
  const { code, stderr } = await runCli(["cut", page, "--start", "1", "--end", "2"], {
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
  const { code } = await runCli(args, yt.env);
  expect(code).toBe(0);
  // yt-dlp stands in for every tool here: the old start-up check ran its --version on every cut.
  expect(yt.calls()).toEqual([]);
});

it("rejects bad arguments with a usage message", async () => {
  const bad = await runCli(["cut", join(dir, "src360.mp4"), "--start", "1:99", "--end", "5"]);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toMatch(/--start: not a time/);
  const help = await runCli(["--help"]);
  expect(help.code).toBe(0);
  expect(help.stdout).toMatch(/cut <source> --start <time> --end <time>/);
});

/** Runs the CLI until it exits, or until it says it is listening (then stops it). */
function runUntilListening(args: string[]) {
  return new Promise<{ code: number | null; output: string; listened: boolean }>((resolve) => {
    const env = { ...process.env, CLIPCUT_COMPANION_CONFIG_DIR: tempDir("clipcut-config-") };
    const child = spawn(process.execPath, [TSX, CLI, ...args], { env });
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
  const missing = await runCli(["cut", join(dir, "src360.mp4"), "--start", "1", "--end", "2"], {
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
  const { code, stderr } = await runCli(
    ["cut", "https://www.youtube.com/watch?v=dQw4w9WgXcQ", "--start", "1", "--end", "2"],
    yt.env,
  );
  expect(code).toBe(1);
  expect(stderr).toMatch(/private/);
  const calls = yt.calls();
  expect(calls.filter((argv) => argv.includes("--version"))).toHaveLength(1);
  expect(calls.filter((argv) => argv.includes("-J"))).toHaveLength(1);
});
