import type { MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { BlogCard, toCardArticle } from "~/components/marketing/blog/blog-card";
import { PageHero } from "~/components/marketing/page-hero";
import { sortedArticles } from "~/domain/blog";

export async function loader() {
  // Only what the cards need, newest first: no article bodies.
  return { articles: sortedArticles().map(toCardArticle) };
}

export default function BlogIndex() {
  const { articles } = useLoaderData<typeof loader>();
  const [featured, ...rest] = articles;
  return (
    <>
      <PageHero
        eyebrow="Blog"
        title="Tips and guides for creators"
        lead="How to cut better clips, choose the right format and grow your audience, from the ClipCut team."
      />
      <div className="container-page py-14 sm:py-20">
        {featured && (
          <section aria-label="Featured article">
            <BlogCard article={featured} featured />
          </section>
        )}
        {rest.length > 0 && (
          <section aria-labelledby="more-articles-heading" className="mt-14">
            <h2 id="more-articles-heading" className="text-2xl font-bold tracking-tight text-slate-900">
              More articles
            </h2>
            <ul className="mt-6 grid gap-8 md:grid-cols-2">
              {rest.map((article) => (
                <li key={article.id} className="flex">
                  <BlogCard article={article} />
                </li>
              ))}
            </ul>
          </section>
        )}
      </div>
    </>
  );
}

export const meta: MetaFunction = () => [
  { title: "Blog | ClipCut" },
  {
    name: "description",
    content:
      "Tutorials, creator tips and format guides from the ClipCut team: learn to clip videos faster and share better moments.",
  },
];
