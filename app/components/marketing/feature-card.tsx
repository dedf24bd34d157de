import type { Feature } from "~/domain/features";
import { FeatureIconSvg } from "./icons";

export function FeatureCard({ feature }: { feature: Feature }) {
  return (
    <li className="card flex flex-col transition hover:-translate-y-0.5 hover:shadow-md">
      <span className="grid h-12 w-12 place-items-center rounded-xl bg-brand-50 text-brand-700">
        <FeatureIconSvg icon={feature.icon} />
      </span>
      <h3 className="mt-5 text-lg font-semibold text-slate-900">{feature.title}</h3>
      <p className="mt-2 flex-1 leading-7 text-slate-600">{feature.summary}</p>
    </li>
  );
}

export function FeatureGrid({ features, labelledBy }: { features: readonly Feature[]; labelledBy?: string }) {
  return (
    <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3" aria-labelledby={labelledBy}>
      {features.map((feature) => (
        <FeatureCard key={feature.id} feature={feature} />
      ))}
    </ul>
  );
}
