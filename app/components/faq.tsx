import type { FaqItem } from "~/domain/faq";

export type { FaqItem };

/** Accordion built on <details>: keyboard-accessible and working without JavaScript. */
export function Faq({ items, firstOpen = false }: { items: readonly FaqItem[]; firstOpen?: boolean }) {
  return (
    <div className="divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white">
      {items.map((item, index) => (
        <details key={item.question} open={firstOpen && index === 0} className="group px-5 py-4">
          <summary className="flex cursor-pointer list-none items-center justify-between gap-4 font-medium text-slate-900">
            {item.question}
            <span aria-hidden="true" className="text-slate-500 transition group-open:rotate-45">
              +
            </span>
          </summary>
          <p className="mt-3 text-sm leading-6 text-slate-600">{item.answer}</p>
        </details>
      ))}
    </div>
  );
}
