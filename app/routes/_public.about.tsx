import type { MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { AboutValues } from "~/components/marketing/about-values";
import { CtaBanner, ctaPrimaryClass, ctaSecondaryClass } from "~/components/marketing/cta-banner";
import { PageHero } from "~/components/marketing/page-hero";
import { SectionHeading } from "~/components/marketing/section-heading";
import { LEGAL, SITE } from "~/domain/site";

const STATS = [
  { value: SITE.stats.creators, label: "Creators" },
  { value: SITE.stats.clips, label: "Clips created" },
  { value: SITE.stats.rating, label: "Average rating" },
] as const;

export default function About() {
  return (
    <>
      <PageHero
        eyebrow="About us"
        title="We help creators share their best moments"
        lead="ClipCut started with one simple idea: cutting a clip from a video should take seconds, not an afternoon in a video editor."
      />

      <section aria-label="ClipCut in numbers" className="container-page -mt-10 relative">
        <dl className="grid gap-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-lg shadow-slate-900/5 sm:grid-cols-3 sm:divide-x sm:divide-slate-200">
          {STATS.map((stat) => (
            <div key={stat.label} className="flex flex-col-reverse items-center py-2 text-center">
              <dt className="mt-1 text-sm font-medium text-slate-600">{stat.label}</dt>
              <dd className="text-3xl font-extrabold tracking-tight text-brand-700 sm:text-4xl">{stat.value}</dd>
            </div>
          ))}
        </dl>
      </section>

      <section aria-labelledby="story-heading" className="container-page py-16 sm:py-24">
        <div className="mx-auto max-w-3xl">
          <h2 id="story-heading" className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
            Our story
          </h2>
          <div className="mt-6 space-y-5 text-lg leading-8 text-slate-700">
            <p>
              We were creators ourselves, cutting highlights from streams, interviews and lectures every week. Each clip
              meant downloading a huge file, opening an editor, scrubbing to the right second and exporting, only to
              find the first word was cut off.
            </p>
            <p>
              So we built the tool we wanted: a browser extension that lets you mark a start and an end, hear the cut on
              a loop, and export the exact clip in the format you need. Because the work happens on your own computer,
              it is fast and your files never sit on someone else&apos;s server.
            </p>
            <p>
              Today {SITE.stats.creators} creators use ClipCut to make shorts, podcast snippets, lesson excerpts and
              social posts. We are a small, independent team, and we read every message: our support team replies within
              about {SITE.supportReplyHours} hours.
            </p>
          </div>
        </div>
      </section>

      <section aria-labelledby="values-heading" className="bg-slate-50 py-16 sm:py-24">
        <div className="container-page">
          <SectionHeading id="values-heading" eyebrow="What we believe" title="Our values">
            Four promises guide every decision we make, from new features to pricing.
          </SectionHeading>
          <AboutValues />
          <p className="mt-8 text-center text-sm text-slate-600">
            Not happy with a new subscription? Ask for a refund within {LEGAL.moneyBackDays} days.
          </p>
        </div>
      </section>

      <CtaBanner
        title="Join the ClipCut community"
        text="Start free today, or tell us what you would like to see next."
      >
        <Link to="/download" className={ctaPrimaryClass}>
          Try for Free
        </Link>
        <Link to="/contact" className={ctaSecondaryClass}>
          Contact us
        </Link>
      </CtaBanner>
    </>
  );
}

export const meta: MetaFunction = () => [
  { title: "About Us | ClipCut" },
  {
    name: "description",
    content: `Meet the team behind ClipCut: ${SITE.stats.creators} creators, ${SITE.stats.clips} clips and a ${SITE.stats.rating} rating. Our story and the values that guide us.`,
  },
];
