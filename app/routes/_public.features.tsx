import type { MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { CtaBanner, ctaPrimaryClass } from "~/components/marketing/cta-banner";
import { FeatureDetail } from "~/components/marketing/feature-detail";
import { PageHero } from "~/components/marketing/page-hero";
import { SectionHeading } from "~/components/marketing/section-heading";
import { ANALYTICS_FEATURE, FEATURES } from "~/domain/features";
import { AUDIO_FORMATS, FORMAT_LABELS, QUALITY_LABELS, VIDEO_FORMATS } from "~/domain/media";
import { PLANS } from "~/domain/plans";

const SPECS = [
  { label: "Video formats", value: VIDEO_FORMATS.map((f) => FORMAT_LABELS[f]).join(", ") },
  { label: "Audio formats", value: AUDIO_FORMATS.map((f) => FORMAT_LABELS[f]).join(", ") },
  { label: "Quality", value: "144p to 4K" },
  { label: "Processing", value: "On your computer" },
] as const;

export default function Features() {
  return (
    <>
      <PageHero
        eyebrow="Features"
        title="Every tool you need to cut the perfect clip"
        lead="ClipCut gives you frame-accurate control, a preview that loops your selection, and exports in the formats and qualities your platform expects."
      >
        <Link to="/download" className="btn-primary px-6 py-3 text-base">
          Get Started for Free
        </Link>
        <Link to="/download" className="btn-secondary px-6 py-3 text-base">
          Download Now
        </Link>
      </PageHero>

      <section aria-label="Formats and quality" className="border-b border-slate-200 bg-white">
        <dl className="container-page grid grid-cols-2 gap-6 py-10 md:grid-cols-4">
          {SPECS.map((spec) => (
            <div key={spec.label} className="text-center">
              <dt className="text-sm font-medium text-slate-600">{spec.label}</dt>
              <dd className="mt-1 font-semibold text-slate-900">{spec.value}</dd>
            </div>
          ))}
        </dl>
      </section>

      <div className="container-page space-y-20 py-16 sm:space-y-28 sm:py-24">
        {FEATURES.map((feature, index) => (
          <FeatureDetail key={feature.id} feature={feature} index={index} />
        ))}
      </div>

      <section aria-labelledby="more-heading" className="bg-slate-50 py-16 sm:py-24">
        <div className="container-page">
          <SectionHeading id="more-heading" eyebrow="For growing channels" title="Know what you clip">
            Advanced and Pro add an analytics dashboard, and Pro lets up to {PLANS.Pro.teamMembers} team members clip
            together.
          </SectionHeading>
          <div className="mx-auto mt-12 max-w-5xl">
            <FeatureDetail feature={ANALYTICS_FEATURE} index={0} />
          </div>
        </div>
      </section>

      <CtaBanner
        title="Start cutting clips today"
        text={`The Free plan includes ${PLANS.Free.credits} credits, clips up to ${PLANS.Free.maxClipSeconds} seconds and exports up to ${QUALITY_LABELS[PLANS.Free.maxQuality]}.`}
      >
        <Link to="/download" className={ctaPrimaryClass}>
          Download Now
        </Link>
      </CtaBanner>
    </>
  );
}

export const meta: MetaFunction = () => [
  { title: "Features | ClipCut" },
  {
    name: "description",
    content:
      "Dual-handle clip control, live preview, exports up to 4K, MP4, MKV, MP3 and WAV, batch processing and custom presets. See what ClipCut can do.",
  },
];
