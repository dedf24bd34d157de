import { BATCH_COPY } from "./batch-copy";
import { PRESET_COPY } from "./preset-copy";
import { PLAN_LIST, type PlanDefinition } from "./plans";

/** Icons the marketing components know how to draw. */
export type FeatureIcon = "handles" | "preview" | "quality" | "formats" | "batch" | "presets" | "analytics";

export interface Feature {
  id: string;
  icon: FeatureIcon;
  title: string;
  /** One or two sentences for the landing page card. */
  summary: string;
  /** The longer story on /features. */
  details: string;
  highlights: readonly string[];
  /** Which plans include it, e.g. "All plans" or "Advanced and Pro". */
  availability: string;
}

/** "Advanced and Pro", "All plans": the plans for which `has` holds, named for people. */
export function plansWhere(has: (plan: PlanDefinition) => boolean): string {
  const names = PLAN_LIST.filter(has).map((plan) => plan.name);
  if (names.length === PLAN_LIST.length) return "All plans";
  if (names.length === 0) return "Coming soon";
  if (names.length === 1) return `${names[0]} plan`;
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/** The six marketed features on the landing page, in order. */
export const FEATURES: readonly Feature[] = [
  {
    id: "dual-handle",
    icon: "handles",
    title: "Dual-handle clip control",
    summary: "Drag a start and an end handle on the timeline, or type exact times, to frame the moment you want.",
    details:
      "Two handles on one timeline set where your clip begins and ends. Drag them with the mouse, nudge them with the arrow keys, or type a time as seconds, mm:ss or hh:mm:ss. ClipCut keeps the start before the end and never lets the end run past the video, so every clip you frame is a clip you can export.",
    highlights: [
      "Type times as ss, mm:ss or hh:mm:ss",
      "Keyboard-friendly handles",
      "Invalid times snap back to the last valid value",
    ],
    availability: "All plans",
  },
  {
    id: "live-preview",
    icon: "preview",
    title: "Live preview",
    summary:
      "Play exactly the section you selected. The preview loops from your start to your end, so you hear every cut.",
    details:
      "Press play and ClipCut plays only your selection: it starts at your start handle and jumps back to it when it reaches the end handle. Skip 10 seconds back or forward, set the volume or mute, and fine-tune the handles while the preview keeps looping.",
    highlights: ["Loops your selection", "Skip back and forward by 10 seconds", "Volume and mute controls"],
    availability: "All plans",
  },
  {
    id: "exports-4k",
    icon: "quality",
    title: "Exports up to 4K",
    summary: "Pick any quality from 144p for quick drafts up to crisp 4K for your final edit.",
    details:
      "Choose the resolution that fits where the clip is going: small files for a chat message, 1080p for social feeds, or 4K when the clip goes into a professional edit. Qualities from 144p to 4K are supported; your plan sets the ceiling.",
    highlights: ["144p to 4K", "Free up to 720p, Basic up to 1080p", "Advanced and Pro up to 4K"],
    availability: plansWhere((plan) => plan.maxQuality === "2160p") + " for 4K",
  },
  {
    id: "formats",
    icon: "formats",
    title: "MP4, MKV, MP3 and WAV",
    summary: "Save video as MP4 or MKV, or pull the audio out as MP3 or WAV for podcasts and sound bites.",
    details:
      "Export the format your editor or platform expects. MP4 plays everywhere, MKV keeps every track for editing, MP3 is perfect for sharing audio, and WAV gives you lossless sound for post-production. MP4 and MP3 are on every plan; MKV, MOV and WAV come with the paid plans.",
    highlights: ["Video: MP4, MKV, WebM, AVI, MOV", "Audio: MP3, WAV", "MP4 and MP3 on every plan"],
    availability: "MP4 and MP3 on all plans",
  },
  {
    id: "batch",
    icon: "batch",
    title: "Batch processing",
    summary: BATCH_COPY.summary,
    details: BATCH_COPY.details,
    highlights: BATCH_COPY.highlights,
    availability: plansWhere((plan) => plan.batch),
  },
  {
    id: "presets",
    icon: "presets",
    title: "Custom presets",
    summary: PRESET_COPY.summary,
    details:
      "If you always export 1080p MP4 for Shorts and MP3 for your podcast, save each as a preset. Pick a preset and every setting is filled in, so a repeat job takes one click instead of five.",
    highlights: PRESET_COPY.highlights,
    availability: plansWhere((plan) => plan.presets),
  },
];

/** Shown on /features below the six core features. */
export const ANALYTICS_FEATURE: Feature = {
  id: "analytics",
  icon: "analytics",
  title: "Analytics dashboard",
  summary: "See how many clips you made, how many credits they used, and what you clip most.",
  details:
    "The analytics dashboard sums up your clipping: clips created, credits spent and your most-used formats and qualities, so you can plan your credits and your content.",
  highlights: ["Clips and credits over time", "Most-used formats and qualities"],
  availability: plansWhere((plan) => plan.analytics),
};
