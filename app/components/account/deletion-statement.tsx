import type { Consequence } from "~/domain/account-deletion";

/** What deleting an account does to it, item by item (the person's page and the admin's screen show the same). */
export function DeletionStatement({
  consequences,
  title = "What happens",
}: {
  consequences: Consequence[];
  title?: string;
}) {
  return (
    <section className="card" aria-labelledby="consequences-title">
      <h2 id="consequences-title" className="text-lg font-semibold">
        {title}
      </h2>
      <dl className="mt-4 divide-y divide-slate-100">
        {consequences.map((c) => (
          <div
            key={c.id}
            className="grid gap-1 py-3 sm:grid-cols-[10rem_1fr] sm:gap-4"
            data-testid={`consequence-${c.id}`}
          >
            <dt className="text-sm font-semibold text-slate-900">{c.title}</dt>
            <dd className="text-sm leading-6 text-slate-700">{c.text}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
