import { describe, expect, it } from "vitest";
import { CUT_PATHS, planInProcess, STAGED_PATHS, type StagedSource } from "./index";
import type { CutRequest } from "./request";
import type { Choice } from "./strategy";

const request = (o: {
  codec: string;
  container: string;
  format?: string;
  strategy?: string;
  crop?: CutRequest["crop"];
  captions?: CutRequest["captions"];
}): CutRequest =>
  ({
    crop: o.crop,
    captions: o.captions,
    info: { video: { codec: o.codec, height: 360, width: 640 }, audio: null, formatName: o.container },
    format: o.format ?? "mp4",
    quality: null,
    watermark: false,
    strategy: o.strategy ?? "auto",
    allowSnap: false,
  }) as unknown as CutRequest;

const staged = (format: StagedSource["format"], choice: Choice | null) =>
  ({ format, choice, frames: null, stage: "", staged: { video: [], audio: [] }, work: "", end: 0 }) as StagedSource;

describe("CUT_PATHS", () => {
  it("lists the eleven paths in the order they are tried: in this process, straight from the source, from the stage", () => {
    expect(CUT_PATHS.map((p) => `${p.where}: ${p.name}`)).toEqual([
      "in-process: fragmented MP4 byte copy",
      "in-process: Matroska byte copy",
      "in-process: mediabunny copy",
      "streamed: streamed shorts",
      "staged: staged audio",
      "staged: staged copy",
      "staged: staged remux",
      "staged: staged H.264 smart cut",
      "staged: staged VP9 smart cut",
      "staged: staged shorts",
      "staged: staged re-encode",
    ]);
  });

  it("names every in-process refusal, and tells the staged path the last one (nothing is read)", async () => {
    const outcome = await planInProcess(request({ codec: "h264", container: "mpegts" }));
    const why = "the mpegts container is read by ffmpeg";
    expect(outcome).toEqual({
      refused: why,
      refusals: CUT_PATHS.filter((p) => p.where === "in-process").map((p) => ({ path: p.name, why })),
    });
    const vp9 = await planInProcess(request({ codec: "vp9", container: "matroska,webm", strategy: "smart" }));
    expect("refused" in vp9 && vp9.refused).toBe("smart asked: smart cuts are staged by ffmpeg");
  });

  it("gives each staged choice to exactly one staged path", () => {
    const takers = (s: StagedSource, codec = "h264") =>
      STAGED_PATHS.filter((p) => p.refuse(request({ codec, container: "mov,mp4" }), s) === null).map((p) => p.name);
    const choice = (kind: Choice["kind"]) => ({ kind, reason: "", packets: 1, endPts: 0 }) as Choice;
    expect(takers(staged("mpegts", null))).toEqual(["staged audio"]);
    expect(takers(staged("mpegts", choice("copy")))).toEqual(["staged copy"]);
    expect(takers(staged("mpegts", choice("smart")))).toEqual(["staged H.264 smart cut"]);
    expect(takers(staged("matroska", choice("smart")), "vp9")).toEqual(["staged VP9 smart cut"]);
    expect(takers(staged("matroska", choice("reencode")), "av1")).toEqual(["staged re-encode"]);
    // A captions track alone beside a copy: the remux, not the copy (which would leave it out).
    const track = { captions: { cues: [], mode: "soft" as const } };
    expect(
      STAGED_PATHS.filter(
        (p) =>
          p.refuse(request({ codec: "h264", container: "mov,mp4", ...track }), staged("mpegts", choice("copy"))) ===
          null,
      ).map((p) => p.name),
    ).toEqual(["staged remux"]);
    // A crop or captions re-encoded: the Shorts path, whatever the codec.
    const crop = { x: 0, y: 0, width: 202, height: 360 };
    const captions = { cues: [], mode: "soft" as const };
    for (const o of [{ crop }, { captions }, { crop, captions }])
      for (const codec of ["h264", "av1"])
        expect(
          STAGED_PATHS.filter(
            (p) =>
              p.refuse(request({ codec, container: "mov,mp4", ...o }), staged("mpegts", choice("reencode"))) === null,
          ).map((p) => p.name),
        ).toEqual(["staged shorts"]);
  });

  it("refuses a crop or burned-in captions in this process, by name", async () => {
    const crop = { x: 0, y: 0, width: 202, height: 360 };
    const burn = { cues: [], mode: "burn" as const };
    const outcome = await planInProcess(request({ codec: "h264", container: "mov,mp4", crop, captions: burn }));
    expect(outcome.refusals.map((r) => r.why)).toEqual(
      CUT_PATHS.filter((p) => p.where === "in-process").map(() => "re-encode needed (crop, captions burned in)"),
    );
  });

  it("encodes a crop or burned-in captions straight from an MP4 or Matroska source; a track alone is staged", () => {
    const streamed = CUT_PATHS.find((p) => p.where === "streamed");
    if (streamed?.where !== "streamed") throw new Error("no streamed path");
    const crop = { x: 0, y: 0, width: 202, height: 360 };
    const burn = { cues: [], mode: "burn" as const };
    const soft = { cues: [], mode: "soft" as const };
    const why = (o: Parameters<typeof request>[0]) => streamed.refuse(request(o));
    expect(why({ codec: "h264", container: "mov,mp4,m4a,3gp,3g2,mj2", crop })).toBeNull();
    expect(why({ codec: "vp9", container: "matroska,webm", format: "webm", captions: burn })).toBeNull();
    expect(why({ codec: "h264", container: "mov,mp4", crop, captions: soft })).toBeNull();
    expect(why({ codec: "h264", container: "mov,mp4", captions: soft })).toBe("a captions track alone");
    expect(why({ codec: "h264", container: "mpegts", crop })).toBe("mpegts is staged first");
    expect(why({ codec: "h264", container: "mov,mp4" })).toBe("no crop and no captions");
  });
});
