import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ArticleBody } from "~/components/marketing/blog/article-body";
import { ArticleMeta } from "~/components/marketing/blog/blog-card";
import { CtaBanner, ctaPrimaryClass, ctaSecondaryClass } from "~/components/marketing/cta-banner";
import { findArticle, formatArticleDate, readingMinutes } from "~/domain/blog";

export async function loader({ params }: LoaderFunctionArgs) {
  const article = findArticle(params.slug ?? "");
  // A real 404: this route's boundary renders the 404 page inside the public layout.
  if (!article) throw new Response("Not Found", { status: 404 });
  return { article, minutes: readingMinutes(article.content) };
}

export default function BlogArticlePage() {
  const { article, minutes } = useLoaderData<typeof loader>();
  const updated = article.updatedAt !== article.createdAt;
  return (
    <>
      <article className="container-page py-12 sm:py-16">
        <div className="mx-auto max-w-3xl">
          <nav aria-label="Breadcrumb">
            <Link to="/blog" className="text-sm font-semibold text-brand-700 hover:underline">
              ← All articles
            </Link>
          </nav>
          <header className="mt-6">
            <ArticleMeta article={{ category: article.category, createdAt: article.createdAt, minutes }} />
            <h1 className="mt-4 text-3xl font-extrabold tracking-tight text-slate-900 sm:text-5xl">{article.title}</h1>
            <p className="mt-5 text-xl leading-8 text-slate-600">{article.excerpt}</p>
            {updated && (
              <p className="mt-3 text-sm text-slate-600">
                Updated <time dateTime={article.updatedAt}>{formatArticleDate(article.updatedAt)}</time>
              </p>
            )}
          </header>
        </div>
        <figure className="mx-auto mt-10 max-w-4xl">
          <img
            src={article.imageUrl}
            alt={article.imageAlt}
            width={1200}
            height={630}
            className="aspect-[1200/630] w-full rounded-2xl border border-slate-200 bg-brand-50 object-cover"
          />
        </figure>
        <div className="mx-auto mt-10 max-w-3xl">
          <ArticleBody content={article.content} />
        </div>
      </article>
      <CtaBanner title="Try it on your next video" text="Install ClipCut for free and cut your first clip in a minute.">
        <Link to="/download" className={ctaPrimaryClass}>
          Create your clips
        </Link>
        <Link to="/blog" className={ctaSecondaryClass}>
          More articles
        </Link>
      </CtaBanner>
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  if (!data) {
    return [{ title: "Page Not Found | ClipCut" }, { name: "robots", content: "noindex" }];
  }
  const { article } = data;
  return [
    { title: article.metaTitle },
    { name: "description", content: article.metaDescription },
    { property: "og:title", content: article.metaTitle },
    { property: "og:description", content: article.metaDescription },
    { property: "og:type", content: "article" },
    { property: "article:published_time", content: article.createdAt },
    { property: "article:modified_time", content: article.updatedAt },
  ];
};

// Rendered inside the layout (header and footer stay); lets `meta` above set the 404 title.
export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
