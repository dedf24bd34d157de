import { describe, expect, it } from "vitest";
import { parseArticleBlocks } from "./article-blocks";
import {
  BLOG_ARTICLES,
  findArticle,
  formatArticleDate,
  readingMinutes,
  sortedArticles,
  type BlogArticle,
} from "./blog";

describe("blog articles", () => {
  it("has three articles", () => {
    expect(BLOG_ARTICLES).toHaveLength(3);
  });

  it("has unique ids and slugs", () => {
    expect(new Set(BLOG_ARTICLES.map((a) => a.id)).size).toBe(BLOG_ARTICLES.length);
    expect(new Set(BLOG_ARTICLES.map((a) => a.slug)).size).toBe(BLOG_ARTICLES.length);
  });

  it("uses URL-safe slugs", () => {
    for (const article of BLOG_ARTICLES) expect(article.slug).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
  });

  it("has unique meta titles ending with the brand and meta descriptions of a sensible length", () => {
    expect(new Set(BLOG_ARTICLES.map((a) => a.metaTitle)).size).toBe(BLOG_ARTICLES.length);
    for (const article of BLOG_ARTICLES) {
      expect(article.metaTitle).toMatch(/ \| ClipCut$/);
      expect(article.metaDescription.length).toBeGreaterThan(50);
      expect(article.metaDescription.length).toBeLessThanOrEqual(160);
    }
  });

  it("has valid dates, never updated before created", () => {
    for (const article of BLOG_ARTICLES) {
      expect(Number.isNaN(Date.parse(article.createdAt))).toBe(false);
      expect(Date.parse(article.updatedAt)).toBeGreaterThanOrEqual(Date.parse(article.createdAt));
    }
  });

  it("uses local images with alt text", () => {
    for (const article of BLOG_ARTICLES) {
      expect(article.imageUrl).toMatch(/^\/blog\/[a-z0-9-]+\.svg$/);
      expect(article.imageAlt.trim()).not.toBe("");
    }
  });

  it("has content with at least one heading and one paragraph", () => {
    for (const article of BLOG_ARTICLES) {
      const types = parseArticleBlocks(article.content).map((block) => block.type);
      expect(types).toContain("heading");
      expect(types).toContain("paragraph");
    }
  });
});

describe("sortedArticles", () => {
  const make = (id: number, createdAt: string): BlogArticle => ({
    ...BLOG_ARTICLES[0]!,
    id,
    slug: `a-${id}`,
    createdAt,
  });

  it("returns the newest article first", () => {
    const sorted = sortedArticles();
    for (let i = 1; i < sorted.length; i++) {
      expect(Date.parse(sorted[i - 1]!.createdAt)).toBeGreaterThanOrEqual(Date.parse(sorted[i]!.createdAt));
    }
  });

  it("sorts any list without changing it", () => {
    const list = [make(1, "2024-05-01T00:00:00Z"), make(2, "2025-01-01T00:00:00Z"), make(3, "2024-12-31T23:59:59Z")];
    expect(sortedArticles(list).map((a) => a.id)).toEqual([2, 3, 1]);
    expect(list.map((a) => a.id)).toEqual([1, 2, 3]);
  });
});

describe("findArticle", () => {
  it("finds an article by slug", () => {
    const first = BLOG_ARTICLES[0]!;
    expect(findArticle(first.slug)).toBe(first);
  });

  it("returns undefined for an unknown slug", () => {
    expect(findArticle("no-such-article")).toBeUndefined();
    expect(findArticle("")).toBeUndefined();
  });
});

describe("formatArticleDate", () => {
  it("prints a long en-US date in UTC", () => {
    expect(formatArticleDate("2025-01-14T09:00:00.000Z")).toBe("January 14, 2025");
    expect(formatArticleDate("2025-03-01T00:30:00.000Z")).toBe("March 1, 2025");
  });
});

describe("readingMinutes", () => {
  it("is at least one minute", () => {
    expect(readingMinutes("")).toBe(1);
    expect(readingMinutes("word ".repeat(1000))).toBe(5);
  });
});
