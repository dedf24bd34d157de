import { COMPARISON_ROWS, PLAN_LIST } from "~/domain/plans";

function Cell({ value }: { value: string | boolean }) {
  if (value === true)
    return (
      <span className="font-semibold text-emerald-700">
        <span aria-hidden="true">✓</span>
        <span className="sr-only">Included</span>
      </span>
    );
  if (value === false)
    return (
      <span className="text-slate-400">
        <span aria-hidden="true">—</span>
        <span className="sr-only">Not included</span>
      </span>
    );
  return <span>{value}</span>;
}

/** Each feature name is a focusable button whose description shows on hover and on keyboard focus (CSS only). */
export function ComparisonTable() {
  return (
    <div className="overflow-x-auto rounded-2xl border border-slate-200">
      <table className="w-full min-w-[640px] text-left text-sm">
        <caption className="sr-only">Feature comparison of the ClipCut plans</caption>
        <thead className="bg-slate-50">
          <tr>
            <th scope="col" className="px-4 py-3 font-semibold">
              Feature
            </th>
            {PLAN_LIST.map((plan) => (
              <th key={plan.id} scope="col" className="px-4 py-3 text-center font-semibold">
                {plan.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {COMPARISON_ROWS.map((row, index) => (
            <tr key={row.feature}>
              <th scope="row" className="px-4 py-3 font-medium">
                <span className="group relative inline-flex">
                  <button
                    type="button"
                    className="cursor-help border-b border-dotted border-slate-400 text-left"
                    aria-describedby={`feature-desc-${index}`}
                  >
                    {row.feature}
                  </button>
                  <span
                    id={`feature-desc-${index}`}
                    role="tooltip"
                    className="pointer-events-none invisible absolute left-0 top-full z-10 mt-2 w-64 rounded-lg bg-slate-900 px-3 py-2 text-xs font-normal text-white opacity-0 shadow-lg transition group-focus-within:visible group-focus-within:opacity-100 group-hover:visible group-hover:opacity-100"
                  >
                    {row.description}
                  </span>
                </span>
              </th>
              {PLAN_LIST.map((plan) => (
                <td key={plan.id} className="px-4 py-3 text-center text-slate-700">
                  <Cell value={row.values[plan.id]} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
