import type { ReactNode } from "react";

export interface LegalSection {
  id: string;
  title: string;
  body: ReactNode;
}

/** A readable legal document: title, date, table of contents, numbered sections. */
export function LegalPage({
  title,
  updated,
  intro,
  sections,
}: {
  title: string;
  updated: string;
  intro: ReactNode;
  sections: readonly LegalSection[];
}) {
  return (
    <div className="container-page py-12 sm:py-16">
      <header className="mx-auto max-w-3xl border-b border-slate-200 pb-8 lg:max-w-5xl">
        <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Legal</p>
        <h1 className="mt-3 text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl">{title}</h1>
        <p className="mt-4 text-sm text-slate-600">Last updated: {updated}</p>
        <div className="mt-6 max-w-3xl space-y-4 text-lg leading-8 text-slate-700">{intro}</div>
      </header>
      <div className="mx-auto mt-10 grid max-w-3xl gap-10 lg:max-w-5xl lg:grid-cols-[14rem_1fr]">
        <nav aria-labelledby="toc-heading" className="lg:sticky lg:top-24 lg:self-start">
          <h2 id="toc-heading" className="text-sm font-semibold text-slate-900">
            On this page
          </h2>
          <ol className="mt-3 space-y-2 text-sm">
            {sections.map((section, index) => (
              <li key={section.id}>
                <a href={`#${section.id}`} className="text-slate-600 hover:text-brand-700 hover:underline">
                  {index + 1}. {section.title}
                </a>
              </li>
            ))}
          </ol>
        </nav>
        <div className="legal-body min-w-0 space-y-10">
          {sections.map((section, index) => (
            <section key={section.id} id={section.id} aria-labelledby={`${section.id}-title`} className="scroll-mt-24">
              <h2 id={`${section.id}-title`} className="text-2xl font-bold tracking-tight text-slate-900">
                {index + 1}. {section.title}
              </h2>
              <div className="mt-4 space-y-4 leading-7 text-slate-700 [&_a]:font-medium [&_a]:text-brand-700 [&_a]:underline [&_li]:pl-1 [&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-6">
                {section.body}
              </div>
            </section>
          ))}
        </div>
      </div>
    </div>
  );
}
