import { Link } from "@remix-run/react";
import type { HelpCategory } from "~/domain/help";
import { ArrowRightIcon } from "../icons";
import { HelpIconSvg } from "./help-icons";

function TileBody({ category }: { category: HelpCategory }) {
  return (
    <>
      <span className="grid h-11 w-11 place-items-center rounded-xl bg-brand-50 text-brand-700">
        <HelpIconSvg icon={category.icon} />
      </span>
      <h3 className="mt-4 flex items-center gap-2 font-semibold text-slate-900">
        {category.title}
        {category.href && <ArrowRightIcon className="h-4 w-4 text-brand-600" />}
      </h3>
      <p className="mt-1 text-sm leading-6 text-slate-600">{category.description}</p>
    </>
  );
}

/** Six tiles; only the one with an href (Contact Support) is a link. */
export function HelpCategories({ categories }: { categories: readonly HelpCategory[] }) {
  return (
    <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-labelledby="categories-heading">
      {categories.map((category) => (
        <li key={category.id}>
          {category.href ? (
            <Link
              to={category.href}
              className="card block h-full border-brand-200 transition hover:-translate-y-0.5 hover:border-brand-400 hover:shadow-md"
            >
              <TileBody category={category} />
            </Link>
          ) : (
            <div className="card h-full">
              <TileBody category={category} />
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}
