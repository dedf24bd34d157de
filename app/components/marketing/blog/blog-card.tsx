import { Link } from "@remix-run/react";
import { formatArticleDate, readingMinutes, type BlogArticle } from "~/domain/blog";

/** What a list card needs: the article without its body, plus the reading time. */
export type BlogCardArticle = Pick<
  BlogArticle,
  "id" | "slug" | "title" | "category" | "createdAt" | "excerpt" | "imageUrl" | "imageAlt"
> & { minutes: number };

export function toCardArticle(article: BlogArticle): BlogCardArticle {
  const { id, slug, title, category, createdAt, excerpt, imageUrl, imageAlt, content } = article;
  return { id, slug, title, category, createdAt, excerpt, imageUrl, imageAlt, minutes: readingMinutes(content) };
}

export function ArticleMeta({ article }: { article: Pick<BlogCardArticle, "category" | "createdAt" | "minutes"> }) {
  return (
    <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-600">
      <span className="rounded-full bg-brand-50 px-2.5 py-0.5 font-medium text-brand-700">{article.category}</span>
      <time dateTime={article.createdAt}>{formatArticleDate(article.createdAt)}</time>
      <span aria-hidden="true">·</span>
      <span>{article.minutes} min read</span>
    </p>
  );
}

/** A list card; the featured one (the newest) is larger and lays out side by side on wide screens. */
export function BlogCard({ article, featured = false }: { article: BlogCardArticle; featured?: boolean }) {
  const HeadingTag = featured ? "h2" : "h3";
  return (
    <article
      className={`group relative flex flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm transition hover:shadow-md ${featured ? "lg:flex-row" : ""}`}
    >
      <img
        src={article.imageUrl}
        alt={article.imageAlt}
        width={1200}
        height={630}
        loading={featured ? "eager" : "lazy"}
        className={`aspect-[1200/630] w-full bg-brand-50 object-cover ${featured ? "lg:w-3/5 lg:shrink-0" : ""}`}
      />
      <div className={`flex min-w-0 flex-1 flex-col p-6 ${featured ? "lg:justify-center lg:p-10" : ""}`}>
        {featured && <p className="mb-3 text-sm font-semibold uppercase tracking-wide text-brand-700">Featured</p>}
        <ArticleMeta article={article} />
        <HeadingTag
          className={`mt-3 font-bold tracking-tight text-slate-900 ${featured ? "text-2xl sm:text-3xl" : "text-xl"}`}
        >
          <Link to={`/blog/${article.slug}`} className="after:absolute after:inset-0 group-hover:text-brand-700">
            {article.title}
          </Link>
        </HeadingTag>
        <p className={`mt-3 leading-7 text-slate-600 ${featured ? "text-lg" : ""}`}>{article.excerpt}</p>
        <p className="mt-5 text-sm font-semibold text-brand-700" aria-hidden="true">
          Read article →
        </p>
      </div>
    </article>
  );
}
