import { LEGAL } from "~/domain/site";
import { CheckIcon } from "./icons";

const VALUES = [
  {
    title: "Creators first",
    text: "Every feature starts with a creator's problem. If it does not save you time, it does not ship.",
  },
  {
    title: "Your files stay yours",
    text: "Clips are processed on your own computer by the extension and a local helper, not on our servers.",
  },
  {
    title: "Fair, clear pricing",
    text: `Credits show exactly what a clip costs, and new subscriptions come with a ${LEGAL.moneyBackDays}-day money-back guarantee.`,
  },
  {
    title: "Quality without compromise",
    text: "From a quick 144p draft to a 4K master, your export matches what you picked, every time.",
  },
] as const;

export function AboutValues() {
  return (
    <ul className="mt-12 grid gap-6 sm:grid-cols-2" aria-labelledby="values-heading">
      {VALUES.map((value) => (
        <li key={value.title} className="card">
          <span className="grid h-10 w-10 place-items-center rounded-full bg-brand-50 text-brand-700">
            <CheckIcon />
          </span>
          <h3 className="mt-4 text-lg font-semibold text-slate-900">{value.title}</h3>
          <p className="mt-2 leading-7 text-slate-600">{value.text}</p>
        </li>
      ))}
    </ul>
  );
}
