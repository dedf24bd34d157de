/** The maintenance notice shows this long after entering the signed-in area (spec: "Maintenance modal delay 500 ms"). */
export const MAINTENANCE_NOTICE_DELAY_MS = 500;

/** Company facts shown on several pages. */
export const SITE = {
  name: "ClipCut",
  tagline: "Trim and download high-quality clips from your favourite videos in seconds.",
  supportEmail: "support@clipcut.app",
  generalEmail: "hello@clipcut.app",
  office: "548 Market St, Suite 4210, San Francisco, CA 94104, USA",
  phone: "+1 (415) 555-0134",
  supportReplyHours: 24,
  stats: { creators: "50,000+", clips: "1 Million+", rating: "4.8/5" },
  social: [
    { name: "YouTube", href: "https://www.youtube.com/@clipcut" },
    { name: "X (Twitter)", href: "https://x.com/clipcut" },
    { name: "Instagram", href: "https://www.instagram.com/clipcut" },
    { name: "TikTok", href: "https://www.tiktok.com/@clipcut" },
  ],
} as const;

/** Legal facts (section 1 of the spec). */
export const LEGAL = {
  moneyBackDays: 14,
  governingLaw: "the State of Delaware",
  privacyPolicyDate: "January 2025",
  minimumAge: 13,
} as const;
