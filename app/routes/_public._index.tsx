import type { MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { BrowserStrip } from "~/components/marketing/browser-strip";
import { CtaBanner, ctaPrimaryClass, ctaSecondaryClass } from "~/components/marketing/cta-banner";
import { FeatureGrid } from "~/components/marketing/feature-card";
import { HomeHero } from "~/components/marketing/home-hero";
import { SectionHeading } from "~/components/marketing/section-heading";
import { TestimonialCard } from "~/components/marketing/testimonial-card";
import { FEATURES } from "~/domain/features";
import { SITE } from "~/domain/site";
import { TESTIMONIALS } from "~/domain/testimonials";

export default function Index() {
  return (
    <>
      <HomeHero />
      <BrowserStrip />

      <section aria-labelledby="features-heading" className="container-page py-16 sm:py-24">
        <SectionHeading id="features-heading" eyebrow="Features" title="Everything you need to clip like a pro">
          Precise controls, instant previews and every format you need, processed right on your computer.
        </SectionHeading>
        <FeatureGrid features={FEATURES} labelledBy="features-heading" />
        <p className="mt-10 text-center">
          <Link to="/features" className="font-semibold text-brand-700 hover:text-brand-800 hover:underline">
            See all features in detail
          </Link>
        </p>
      </section>

      <section aria-labelledby="testimonials-heading" className="bg-slate-50 py-16 sm:py-24">
        <div className="container-page">
          <SectionHeading id="testimonials-heading" eyebrow="Testimonials" title="Loved by creators everywhere">
            {SITE.stats.creators} creators have made {SITE.stats.clips} clips, with an average rating of{" "}
            {SITE.stats.rating}.
          </SectionHeading>
          <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3" aria-labelledby="testimonials-heading">
            {TESTIMONIALS.map((testimonial) => (
              <TestimonialCard key={testimonial.name} testimonial={testimonial} />
            ))}
          </ul>
        </div>
      </section>

      <CtaBanner
        title="Ready to create your first clip?"
        text="Install the free extension and start with 100 credits. Your first clip is a minute away."
      >
        <Link to="/download" className={ctaPrimaryClass}>
          Create your clips
        </Link>
        <Link to="/pricing" className={ctaSecondaryClass}>
          See pricing
        </Link>
      </CtaBanner>
    </>
  );
}

export const meta: MetaFunction = () => [
  { title: "Cut and Download Clips from Any Video | ClipCut" },
  {
    name: "description",
    content:
      "Trim and download high-quality clips from online videos. Dual-handle controls, live preview, MP4, MKV, MP3 and WAV exports in up to 4K.",
  },
];
