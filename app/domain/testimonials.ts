/** Avatar colours: each maps to classes with enough contrast for white text. */
export const TESTIMONIAL_COLORS = ["brand", "emerald", "rose", "amber", "violet", "cyan"] as const;
export type TestimonialColor = (typeof TESTIMONIAL_COLORS)[number];

export interface Testimonial {
  quote: string;
  name: string;
  /** What the person does, shown under the name. */
  role: string;
  /** 1 to 5 stars. */
  rating: number;
  avatarLetter: string;
  color: TestimonialColor;
}

export const TESTIMONIALS: readonly Testimonial[] = [
  {
    quote:
      "I cut highlights from two-hour streams every day. Typing the exact start and end times saves me a good hour a week.",
    name: "Maya Rodriguez",
    role: "Twitch streamer",
    rating: 5,
    avatarLetter: "M",
    color: "brand",
  },
  {
    quote:
      "The looping preview is the feature I did not know I needed. I hear the cut before I export, so no more clipped words.",
    name: "Daniel Okafor",
    role: "Podcast editor",
    rating: 5,
    avatarLetter: "D",
    color: "emerald",
  },
  {
    quote:
      "Pulling a clean WAV out of an interview for my edit takes seconds now. The audio is exactly what was in the video.",
    name: "Sofia Lindqvist",
    role: "Documentary producer",
    rating: 5,
    avatarLetter: "S",
    color: "rose",
  },
  {
    quote:
      "Batch processing changed my Mondays. I queue the week's Shorts in one go and the exports are ready after lunch.",
    name: "Kenji Watanabe",
    role: "YouTube Shorts creator",
    rating: 5,
    avatarLetter: "K",
    color: "amber",
  },
  {
    quote: "My students clip lecture snippets for their projects. It is simple enough that nobody needs a tutorial.",
    name: "Priya Natarajan",
    role: "Media studies teacher",
    rating: 4,
    avatarLetter: "P",
    color: "violet",
  },
  {
    quote: "Presets keep our whole team on the same format and quality. Our social clips finally look consistent.",
    name: "Lucas Martin",
    role: "Social media manager",
    rating: 5,
    avatarLetter: "L",
    color: "cyan",
  },
];
