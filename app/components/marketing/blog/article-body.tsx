import { parseArticleBlocks } from "~/domain/article-blocks";

/** Renders an article's plain-text content: headings, bullet lists and paragraphs. */
export function ArticleBody({ content }: { content: string }) {
  const blocks = parseArticleBlocks(content);
  return (
    <div className="prose-article text-lg">
      {blocks.map((block, index) => {
        switch (block.type) {
          case "heading":
            return (
              <h2 key={index} className="mb-4 mt-10 text-2xl font-bold tracking-tight text-slate-900">
                {block.text}
              </h2>
            );
          case "list":
            return (
              <ul key={index} className="mb-6 list-disc space-y-2 pl-6 leading-7 text-slate-700 marker:text-brand-600">
                {block.items.map((item, itemIndex) => (
                  <li key={itemIndex}>{item}</li>
                ))}
              </ul>
            );
          case "paragraph":
            return <p key={index}>{block.text}</p>;
        }
      })}
    </div>
  );
}
