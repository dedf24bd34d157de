import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { HelpArticles } from "~/components/marketing/help/help-articles";
import { HelpCategories } from "~/components/marketing/help/help-categories";
import { HelpSearch, useHelpQuery } from "~/components/marketing/help/help-search";
import { HELP_CATEGORIES, normalizeHelpQuery, searchHelpArticles } from "~/domain/help";
import { SITE } from "~/domain/site";

export async function loader({ request }: LoaderFunctionArgs) {
  const q = normalizeHelpQuery(new URL(request.url).searchParams.get("q"));
  return { q, articles: searchHelpArticles(q) };
}

export default function Help() {
  const { q, articles } = useLoaderData<typeof loader>();
  const [query, setQuery] = useHelpQuery(q);
  const current = normalizeHelpQuery(query);
  // The loader filtered for `q`; while typing runs ahead of the URL, filter here with the same function.
  const visible = current === q ? articles : searchHelpArticles(current);
  const count = `${visible.length} ${visible.length === 1 ? "article" : "articles"}`;

  return (
    <>
      <section className="border-b border-slate-200 bg-gradient-to-b from-brand-50 to-white">
        <div className="container-page py-16 text-center sm:py-20">
          <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Help Center</p>
          <h1 className="mt-3 text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl">How can we help?</h1>
          <p className="mx-auto mt-4 max-w-xl text-lg text-slate-600">Search our guides, or browse by topic below.</p>
          <HelpSearch query={query} onQueryChange={setQuery} />
        </div>
      </section>

      <section aria-labelledby="articles-heading" className="container-page py-14">
        <div className="mx-auto max-w-3xl">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h2 id="articles-heading" className="text-2xl font-bold tracking-tight text-slate-900">
              {current ? "Search results" : "Popular articles"}
            </h2>
            <p role="status" className="text-sm text-slate-600">
              {current ? `${count} found for “${current}”` : count}
            </p>
          </div>
          <HelpArticles articles={visible} query={current} />
        </div>
      </section>

      <section aria-labelledby="categories-heading" className="bg-slate-50 py-14 sm:py-20">
        <div className="container-page">
          <h2
            id="categories-heading"
            className="text-center text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl"
          >
            Browse by category
          </h2>
          <HelpCategories categories={HELP_CATEGORIES} />
          <p className="mt-10 text-center text-slate-600">
            Can&apos;t find what you need? Email{" "}
            <a href={`mailto:${SITE.supportEmail}`} className="font-semibold text-brand-700 hover:underline">
              {SITE.supportEmail}
            </a>{" "}
            or{" "}
            <Link to="/contact" className="font-semibold text-brand-700 hover:underline">
              send us a message
            </Link>
            . We reply within about {SITE.supportReplyHours} hours.
          </p>
        </div>
      </section>
    </>
  );
}

export const meta: MetaFunction = () => [
  { title: "Help Center | ClipCut" },
  {
    name: "description",
    content:
      "Answers about installing the ClipCut extension, cutting and exporting clips, credits, plans and billing. Search the Help Center or contact support.",
  },
];
