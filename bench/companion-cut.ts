/**
 * Clip-engine benchmark: a 20 s cut at 10 s and at 90 % into a long 1080p30 H.264 source served over loopback HTTP
 * with range requests. Compares ClipCut copy and smart cuts with plain `ffmpeg -ss -i -t -c copy` (the physical
 * floor) and with `yt-dlp --download-sections` when installed: wall time, bytes read from the server, start accuracy.
 *
 *   npx tsx bench/companion-cut.ts            (first run generates the source: about a minute)
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cutClip } from "../extension/companion/src/cut";
import { probeMedia } from "../extension/companion/src/probe";
import { resolveSource } from "../extension/companion/src/source";
import { toolPaths, toolVersion } from "../extension/companion/src/tools";
import { makeVideoSource } from "../extension/companion/test/media";
import { startRangeServer } from "../extension/companion/test/range-server";
import { measureAccuracy, timeCommand, type Accuracy } from "./companion/measure";

const SOURCE_SECONDS = Number(process.env.BENCH_SOURCE_SECONDS ?? 240);
const CLIP = 20;
const FPS = 30;

interface Row {
  tool: string;
  at: string;
  seconds: number;
  bytes: number;
  accuracy: Accuracy | null;
  note: string;
}

async function main() {
  const mediaDir = join(tmpdir(), "clipcut-bench-media-v1");
  mkdirSync(mediaDir, { recursive: true });
  const name = `long1080-${SOURCE_SECONDS}s.mp4`;
  const sourcePath = join(mediaDir, name);
  process.stderr.write(`Preparing ${SOURCE_SECONDS}s 1080p30 source (2 s GOP, B-frames, faststart)…\n`);
  await makeVideoSource(sourcePath, { width: 1920, height: 1080, seconds: SOURCE_SECONDS, videoBitrate: "4M" });
  const server = await startRangeServer(mediaDir);
  const url = server.url(name);
  const tools = toolPaths();
  const ytDlp = await toolVersion(tools.ytDlp, "--version");
  const work = mkdtempSync(join(tmpdir(), "clipcut-bench-"));
  const rows: Row[] = [];
  const positions = [10.4, Math.round(SOURCE_SECONDS * 0.9) + 0.4];

  for (const start of positions) {
    const at = `${start}s`;
    const measure = async (tool: string, output: string, fn: () => Promise<{ ok: boolean; note?: string }>) => {
      server.reset();
      const began = performance.now();
      const { ok, note } = await fn();
      const seconds = (performance.now() - began) / 1000;
      const bytes = server.bytesSent();
      const accuracy = ok ? await measureAccuracy(output, sourcePath, start, FPS).catch(() => null) : null;
      rows.push({ tool, at, seconds, bytes, accuracy, note: ok ? (note ?? "") : "failed" });
      process.stderr.write(`  ${tool} @ ${at}: ${seconds.toFixed(2)} s\n`);
    };

    const floor = join(work, `floor-${start}.mp4`);
    await measure("ffmpeg -ss -i -t -c copy (floor)", floor, async () => {
      const r = await timeCommand("ffmpeg", [
        "-v",
        "error",
        "-y",
        "-ss",
        String(start),
        "-i",
        url,
        "-t",
        String(CLIP),
        "-c",
        "copy",
        floor,
      ]);
      return { ok: r.ok };
    });

    for (const strategy of ["copy", "smart"] as const) {
      const outDir = mkdtempSync(join(work, `${strategy}-`));
      let output = "";
      await measure(`ClipCut ${strategy}`, "", async () => {
        const input = await resolveSource(tools, url, { allowPrivate: true });
        const info = await probeMedia(tools.ffprobe, input);
        const result = await cutClip(
          {
            input,
            info,
            startSeconds: start,
            endSeconds: start + CLIP,
            format: "mp4",
            quality: null,
            strategy,
            allowSnap: true,
            watermark: false,
            outputDir: outDir,
            baseName: "clip",
          },
          { tools },
        );
        output = result.output;
        return { ok: true, note: result.snapped ? `snapped to ${result.startSeconds}s (reported)` : "" };
      });
      // measure() ran accuracy with an empty path; redo it with the real output.
      const row = rows[rows.length - 1]!;
      row.accuracy = await measureAccuracy(output, sourcePath, start, FPS);
    }

    if (ytDlp) {
      const out = join(work, `ytdlp-${start}.mp4`);
      await measure(`yt-dlp ${ytDlp} --download-sections`, out, async () => {
        const r = await timeCommand(tools.ytDlp, [
          "--no-warnings",
          "--quiet",
          "--force-overwrites",
          "-f",
          "b",
          "--download-sections",
          `*${start}-${start + CLIP}`,
          "-o",
          out,
          url,
        ]);
        return { ok: r.ok };
      });
    }
  }
  await server.close();
  rmSync(work, { recursive: true, force: true });

  const mb = (b: number) => (b / 1e6).toFixed(2);
  const lines = [
    `Source: ${SOURCE_SECONDS} s 1080p30 H.264 (~4 Mb/s, 2 s GOP, B-frames) + AAC, served over loopback HTTP with ranges. Clip: ${CLIP} s.`,
    `Ideal bytes for ${CLIP} s ≈ ${mb(((4_000_000 + 96_000) / 8) * CLIP)} MB. Start error: first frame a player shows vs the requested frame (1 frame = 33 ms).`,
    "",
    "| Tool | Clip start | Wall time (s) | Bytes read (MB) | Start error | Duration (s) | Hidden lead-in frames | Note |",
    "|---|---|---|---|---|---|---|---|",
    ...rows.map((r) => {
      const a = r.accuracy;
      const err = a
        ? `${a.startErrorFrames >= 0 ? "+" : ""}${a.startErrorFrames} fr (${((a.startErrorFrames / FPS) * 1000).toFixed(0)} ms)`
        : "–";
      return `| ${r.tool} | ${r.at} | ${r.seconds.toFixed(2)} | ${mb(r.bytes)} | ${err} | ${a ? a.durationSeconds.toFixed(3) : "–"} | ${a ? a.hiddenFrames : "–"} | ${r.note} |`;
    }),
  ];
  if (!ytDlp) lines.push("", "yt-dlp is not installed: its rows are skipped.");
  process.stdout.write(`${lines.join("\n")}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
