import type { Feature } from "~/domain/features";
import { FeatureVisual } from "./feature-visual";
import { CheckIcon } from "./icons";

/** One feature on /features: icon, title, story, highlights and the plans that include it. */
export function FeatureDetail({ feature, index }: { feature: Feature; index: number }) {
  const headingId = `feature-${feature.id}`;
  const flipped = index % 2 === 1;
  return (
    <article aria-labelledby={headingId} className="grid items-center gap-8 md:grid-cols-2 md:gap-12">
      <div className={flipped ? "md:order-2" : undefined}>
        <p className="inline-flex rounded-full bg-brand-50 px-3 py-1 text-xs font-semibold text-brand-700">
          {feature.availability}
        </p>
        <h2 id={headingId} className="mt-3 text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
          {feature.title}
        </h2>
        <p className="mt-4 leading-7 text-slate-600">{feature.details}</p>
        <ul className="mt-6 space-y-3">
          {feature.highlights.map((highlight) => (
            <li key={highlight} className="flex gap-3 text-slate-700">
              <CheckIcon className="mt-0.5 h-5 w-5 shrink-0 text-brand-600" />
              {highlight}
            </li>
          ))}
        </ul>
      </div>
      <div className={flipped ? "md:order-1" : undefined}>
        <FeatureVisual icon={feature.icon} />
      </div>
    </article>
  );
}
