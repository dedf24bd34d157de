import { run } from "./media";

export interface OutputFacts {
  frames: number | null;
  /** Frames counted with edit lists ignored: hidden lead-in frames would show up here. */
  framesIgnoringEditList: number | null;
  videoCodec: string | null;
  audioCodec: string | null;
  width: number | null;
  height: number | null;
  durationSeconds: number;
  decodeErrors: string;
}

export async function outputFacts(file: string): Promise<OutputFacts> {
  // -count_frames decodes every frame of every stream, and the decoders' complaints come on stderr: the decode check
  // is this run's (a separate `ffmpeg -f null` decoded the whole file a second time for the same errors).
  const probe = async (extra: string[]) => {
    const { stdout, stderr } = await run("ffprobe", [
      ...["-v", "error", ...extra, "-count_frames", "-show_entries"],
      ...["stream=codec_type,codec_name,width,height,nb_read_frames:format=duration", "-of", "json", file],
    ]);
    const facts = JSON.parse(stdout.toString()) as {
      streams: { codec_type: string; codec_name: string; width?: number; height?: number; nb_read_frames?: string }[];
      format: { duration?: string };
    };
    return { ...facts, stderr };
  };
  const normal = await probe([]);
  const isMov = /\.(mp4|mov)$/.test(file);
  const raw = isMov ? await probe(["-ignore_editlist", "1"]) : normal;
  const v = normal.streams.find((s) => s.codec_type === "video");
  const a = normal.streams.find((s) => s.codec_type === "audio");
  const rv = raw.streams.find((s) => s.codec_type === "video");
  return {
    frames: v?.nb_read_frames ? Number(v.nb_read_frames) : null,
    framesIgnoringEditList: rv?.nb_read_frames ? Number(rv.nb_read_frames) : null,
    videoCodec: v?.codec_name ?? null,
    audioCodec: a?.codec_name ?? null,
    width: v?.width ?? null,
    height: v?.height ?? null,
    durationSeconds: Number(normal.format.duration ?? NaN),
    decodeErrors: normal.stderr.trim(),
  };
}
