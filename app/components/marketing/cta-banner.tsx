import type { ReactNode } from "react";

/** The closing call to action at the bottom of marketing pages. */
export function CtaBanner({
  id = "cta-heading",
  title,
  text,
  children,
}: {
  id?: string;
  title: string;
  text: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="container-page py-16 sm:py-20">
      <div className="relative overflow-hidden rounded-3xl bg-brand-700 px-6 py-14 text-center shadow-xl sm:px-12">
        <div
          className="pointer-events-none absolute -left-16 -top-16 h-56 w-56 rounded-full bg-brand-500/50 blur-3xl"
          aria-hidden="true"
        />
        <div
          className="pointer-events-none absolute -bottom-20 -right-10 h-64 w-64 rounded-full bg-brand-900/60 blur-3xl"
          aria-hidden="true"
        />
        <div className="relative">
          <h2 id={id} className="text-balance text-3xl font-bold tracking-tight text-white sm:text-4xl">
            {title}
          </h2>
          <p className="mx-auto mt-4 max-w-xl text-lg text-brand-50">{text}</p>
          <div className="mt-8 flex flex-wrap justify-center gap-3">{children}</div>
        </div>
      </div>
    </section>
  );
}

/** Button styles that read well on the brand-coloured banner. */
export const ctaPrimaryClass =
  "btn bg-white px-6 py-3 text-base text-brand-700 hover:bg-brand-50 focus-visible:outline-white";
export const ctaSecondaryClass =
  "btn border border-white/60 px-6 py-3 text-base text-white hover:bg-white/10 focus-visible:outline-white";
