import { BATCH_COPY, BATCH_MAX_HOLDS } from "./batch-copy";
import { PRESET_COPY } from "./preset-copy";
import { FORMATS, FORMAT_LABELS, QUALITY_LABELS, compareQuality, type Format, type Quality } from "./media";

/** Plans a user can choose, in order. The legacy stored value "Plugin" counts as Free everywhere. */
export const PLAN_IDS = ["Free", "Basic", "Advanced", "Pro"] as const;
export type PlanId = (typeof PLAN_IDS)[number];
export const STORED_PLANS = [...PLAN_IDS, "Plugin"] as const;
export type StoredPlan = (typeof STORED_PLANS)[number];

export type Billing = "monthly" | "yearly";

export interface PlanDefinition {
  id: PlanId;
  name: string;
  tagline: string;
  /** USD per month, billed monthly / billed yearly. */
  priceMonthly: number;
  priceYearly: number;
  credits: number;
  creditsPeriod: "once" | "month";
  maxClipSeconds: number;
  maxQuality: Quality;
  formats: readonly Format[];
  watermark: boolean;
  batch: boolean;
  presets: boolean;
  analytics: boolean;
  teamMembers: number;
  /** Bullet list on the pricing card. */
  features: readonly string[];
  /** The plan's own button: what a signed-out visitor sees on the Free card, and the upgrade label of paid ones. */
  buttonText: string;
}

const FREE_FORMATS: readonly Format[] = ["mp4", "mp3", "gif"];

export const PLANS: Record<PlanId, PlanDefinition> = {
  Free: {
    id: "Free",
    name: "Free",
    tagline: "Try ClipCut with one-time starter credits.",
    priceMonthly: 0,
    priceYearly: 0,
    credits: 100,
    creditsPeriod: "once",
    maxClipSeconds: 60,
    maxQuality: "720p",
    formats: FREE_FORMATS,
    watermark: true,
    batch: false,
    presets: false,
    analytics: false,
    teamMembers: 1,
    features: [
      "100 one-time credits",
      "Clips up to 60 seconds",
      "Up to 720p quality",
      "MP4, MP3 and GIF",
      "Watermark on exports",
    ],
    buttonText: "Get Started",
  },
  Basic: {
    id: "Basic",
    name: "Basic",
    tagline: "For creators who clip every week.",
    priceMonthly: 15,
    priceYearly: 10,
    credits: 500,
    creditsPeriod: "month",
    maxClipSeconds: 90,
    maxQuality: "1080p",
    formats: FORMATS,
    watermark: false,
    batch: false,
    presets: false,
    analytics: false,
    teamMembers: 1,
    features: [
      "500 credits per month",
      "Clips up to 90 seconds",
      "Up to 1080p quality",
      "All export formats",
      "No watermark",
    ],
    buttonText: "Upgrade to Basic",
  },
  Advanced: {
    id: "Advanced",
    name: "Advanced",
    tagline: "For channels that publish every day.",
    priceMonthly: 29,
    priceYearly: 19,
    credits: 2000,
    creditsPeriod: "month",
    maxClipSeconds: 120,
    maxQuality: "2160p",
    formats: FORMATS,
    watermark: false,
    batch: true,
    presets: true,
    analytics: true,
    teamMembers: 1,
    features: [
      "2,000 credits per month",
      "Clips up to 120 seconds",
      "Up to 4K quality",
      "All export formats",
      "Batch processing",
      "Custom presets",
      "Analytics dashboard",
    ],
    buttonText: "Upgrade to Advanced",
  },
  Pro: {
    id: "Pro",
    name: "Pro",
    tagline: "For studios and teams.",
    priceMonthly: 69,
    priceYearly: 46,
    credits: 10000,
    creditsPeriod: "month",
    maxClipSeconds: 180,
    maxQuality: "2160p",
    formats: FORMATS,
    watermark: false,
    batch: true,
    presets: true,
    analytics: true,
    teamMembers: 5,
    features: [
      "10,000 credits per month",
      "Clips up to 180 seconds",
      "All export formats",
      "Batch processing",
      "Custom presets",
      "Analytics dashboard",
      "Up to 5 team members",
    ],
    buttonText: "Upgrade to Pro",
  },
};

export const PLAN_LIST: readonly PlanDefinition[] = PLAN_IDS.map((id) => PLANS[id]);
export const MOST_POPULAR_PLAN: PlanId = "Advanced";
/** "Annual (Save 33%)": yearly prices are about a third below monthly ones. */
export const ANNUAL_SAVING_PERCENT = 33;

/** A stored plan as it counts: Plugin, missing or unknown values are Free. */
export function effectivePlan(stored: string | null | undefined): PlanId {
  return (PLAN_IDS as readonly string[]).includes(stored ?? "") ? (stored as PlanId) : "Free";
}

export function planRank(plan: PlanId): number {
  return PLAN_IDS.indexOf(plan);
}

export function planPrice(plan: PlanId, billing: Billing): number {
  return billing === "yearly" ? PLANS[plan].priceYearly : PLANS[plan].priceMonthly;
}

/** Progress-bar allowance on /credits: the plan's credit grant. */
export function planAllowance(plan: PlanId): number {
  return PLANS[plan].credits;
}

export type PlanButton =
  | { kind: "current"; label: "Current Plan"; disabled: true }
  | { kind: "upgrade" | "downgrade"; label: string; disabled: false }
  | { kind: "signup"; label: string; disabled: false };

/** The button on a plan card for a viewer on `current` (null when signed out). */
export function planButton(target: PlanId, current: PlanId | null): PlanButton {
  if (current === null) {
    return { kind: "signup", label: target === "Free" ? PLANS.Free.buttonText : "Sign up to upgrade", disabled: false };
  }
  if (target === current) return { kind: "current", label: "Current Plan", disabled: true };
  return planRank(target) > planRank(current)
    ? { kind: "upgrade", label: PLANS[target].buttonText, disabled: false }
    : { kind: "downgrade", label: `Downgrade to ${target}`, disabled: false };
}

/** The lowest plan for which `allowed` holds, to name in limit messages. */
function lowestPlanWhere(allowed: (plan: PlanDefinition) => boolean): PlanDefinition | undefined {
  return PLAN_LIST.find(allowed);
}

export interface ClipShape {
  durationSeconds: number;
  format: Format;
  quality: Quality;
}

export type LimitCheck = { ok: true } | { ok: false; limit: "length" | "quality" | "format"; message: string };

/** The plan limits the server enforces on every clip (length, quality, format). */
export function checkPlanLimits(plan: PlanId, clip: ClipShape): LimitCheck {
  const def = PLANS[plan];
  if (clip.durationSeconds > def.maxClipSeconds) {
    const lift = lowestPlanWhere((p) => p.maxClipSeconds >= clip.durationSeconds);
    return {
      ok: false,
      limit: "length",
      message:
        `Clips on the ${def.name} plan can be at most ${def.maxClipSeconds} seconds long.` +
        (lift ? ` Upgrade to ${lift.name} for clips up to ${lift.maxClipSeconds} seconds.` : ""),
    };
  }
  if (compareQuality(clip.quality, def.maxQuality) > 0) {
    const lift = lowestPlanWhere((p) => compareQuality(clip.quality, p.maxQuality) <= 0);
    return {
      ok: false,
      limit: "quality",
      message:
        `The ${def.name} plan exports up to ${QUALITY_LABELS[def.maxQuality]}.` +
        (lift ? ` Upgrade to ${lift.name} for ${QUALITY_LABELS[clip.quality]}.` : ""),
    };
  }
  if (!def.formats.includes(clip.format)) {
    const lift = lowestPlanWhere((p) => p.formats.includes(clip.format));
    return {
      ok: false,
      limit: "format",
      message:
        `${FORMAT_LABELS[clip.format]} export is not included in the ${def.name} plan.` +
        (lift ? ` Upgrade to ${lift.name} to export ${FORMAT_LABELS[clip.format]}.` : ""),
    };
  }
  return { ok: true };
}

/** What the API's /me reports as the user's limits. */
export function planLimits(plan: PlanId) {
  const def = PLANS[plan];
  return {
    maxClipSeconds: def.maxClipSeconds,
    maxQuality: def.maxQuality,
    formats: [...def.formats],
    watermark: def.watermark,
    batch: def.batch,
    presets: def.presets,
    maxOpenHolds: maxOpenHolds(plan),
  };
}

export interface ComparisonRow {
  feature: string;
  /** Shown on hover and keyboard focus. */
  description: string;
  values: Record<PlanId, string | boolean>;
}

const perPlan = <T>(f: (plan: PlanDefinition) => T) =>
  Object.fromEntries(PLAN_LIST.map((p) => [p.id, f(p)])) as Record<PlanId, T>;

/** The pricing page's feature comparison table, derived from the plan definitions above. */
export const COMPARISON_ROWS: readonly ComparisonRow[] = [
  {
    feature: "Credits",
    description: "Credits pay for clips: about 1 credit per 30 seconds, more for higher quality.",
    values: perPlan((p) =>
      p.creditsPeriod === "once" ? `${p.credits} one-time` : `${p.credits.toLocaleString("en-US")} / month`,
    ),
  },
  {
    feature: "Max clip length",
    description: "The longest single clip you can cut on this plan.",
    values: perPlan((p) => `${p.maxClipSeconds} s`),
  },
  {
    feature: "Max quality",
    description: "Highest export resolution. We never upscale beyond the source video.",
    values: perPlan((p) => (p.maxQuality === "2160p" ? "4K" : p.maxQuality)),
  },
  {
    feature: "MP4, MP3 and GIF",
    description: "The most common video, audio and animation formats.",
    values: perPlan((p) => p.formats.includes("mp4")),
  },
  {
    feature: "All export formats",
    description: "MKV, WebM, MOV, AVI video and WAV audio in addition to MP4, MP3 and GIF.",
    values: perPlan((p) => p.formats.length === FORMATS.length),
  },
  {
    feature: "No watermark",
    description: "Free exports carry a small ClipCut watermark; paid plans export clean files.",
    values: perPlan((p) => !p.watermark),
  },
  {
    feature: "Batch Processing",
    description: BATCH_COPY.comparison,
    values: perPlan((p) => p.batch),
  },
  {
    feature: "Custom Presets",
    description: PRESET_COPY.comparison,
    values: perPlan((p) => p.presets),
  },
  {
    feature: "Analytics Dashboard",
    description: "See your clip and credit usage over time.",
    values: perPlan((p) => p.analytics),
  },
  {
    feature: "Team members",
    description: "Share one subscription with up to 5 team members.",
    values: perPlan((p) => (p.teamMembers > 1 ? `Up to ${p.teamMembers}` : false)),
  },
];

/** Credits granted per monthly period (Free's 100 are a one-time sign-up grant, not monthly). */
export function monthlyCredits(plan: PlanId): number {
  return PLANS[plan].creditsPeriod === "month" ? PLANS[plan].credits : 0;
}

export const PLAN_PERIOD_MS = 30 * 24 * 60 * 60 * 1000;

/** Clips in flight at once (open holds): batch processing is what Advanced and Pro add. */
export { BATCH_MAX_HOLDS };
export function maxOpenHolds(plan: PlanId): number {
  return PLANS[plan].batch ? BATCH_MAX_HOLDS : 1;
}
export const BATCH_LIMIT_MESSAGE = "Batch processing is part of the Advanced plan: one clip at a time on your plan.";
export const batchFullMessage = (max: number) =>
  `You already have ${max} clips in progress, the most your plan allows at once. Wait for one to finish.`;

// ── Payments ─────────────────────────────────────────────────────────────

/** Paid plans are sold as Stripe prices found by lookup key: `basic_monthly`, `basic_yearly`, … */
export type PaidPlanId = Exclude<PlanId, "Free">;
export const PAID_PLAN_IDS = PLAN_IDS.filter((p): p is PaidPlanId => p !== "Free");

export function priceLookupKey(plan: PaidPlanId, billing: Billing): string {
  return `${plan.toLowerCase()}_${billing}`;
}

/** The plan and billing a price's lookup key stands for; null for anything we do not sell. */
export function planOfLookupKey(key: string | null | undefined): { plan: PaidPlanId; billing: Billing } | null {
  for (const plan of PAID_PLAN_IDS)
    for (const billing of ["monthly", "yearly"] as const)
      if (priceLookupKey(plan, billing) === key) return { plan, billing };
  return null;
}

/** What one billing period costs, in cents: a month, or twelve months at the yearly rate. */
export function planPeriodPriceCents(plan: PaidPlanId, billing: Billing): number {
  return billing === "yearly" ? PLANS[plan].priceYearly * 12 * 100 : PLANS[plan].priceMonthly * 100;
}

export interface CreditPack {
  /** Also the Stripe price's lookup key. */
  id: string;
  name: string;
  credits: number;
  priceCents: number;
}

/** One-time credit packs ("Buy More Credits"). */
export const CREDIT_PACKS: readonly CreditPack[] = [
  { id: "credits_500", name: "500 credits", credits: 500, priceCents: 1000 },
  { id: "credits_2000", name: "2,000 credits", credits: 2000, priceCents: 3500 },
  { id: "credits_10000", name: "10,000 credits", credits: 10000, priceCents: 15000 },
];

export function creditPack(id: string | null | undefined): CreditPack | null {
  return CREDIT_PACKS.find((p) => p.id === id) ?? null;
}

/** Money-back guarantee: an admin may refund a payment this long after it was paid. */
export const REFUND_WINDOW_MS = 14 * 24 * 60 * 60 * 1000;

/** Revenue figures: "$0", "$15", "$1,234.50" (whole dollars without cents). */
export function formatRevenue(cents: number): string {
  return cents % 100 === 0 ? `$${(cents / 100).toLocaleString("en-US")}` : formatCents(cents);
}

/** "$15.00" from cents. */
export function formatCents(cents: number): string {
  return `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}
