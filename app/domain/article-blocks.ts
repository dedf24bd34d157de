/**
 * Blog article bodies are plain text. Blank lines separate blocks; a block wrapped in double asterisks
 * (`**Heading**`) is a heading, a block whose every line starts with `* ` is a bullet list, anything else
 * is a paragraph.
 */
export type ArticleBlock =
  { type: "heading"; text: string } | { type: "list"; items: string[] } | { type: "paragraph"; text: string };

const HEADING = /^\*\*([\s\S]+)\*\*$/;
const BULLET = /^\* /;

const collapse = (text: string) => text.replace(/\s+/g, " ").trim();

function parseBlock(block: string): ArticleBlock | null {
  const lines = block
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  if (lines.length === 0) return null;
  const joined = lines.join("\n");

  const heading = HEADING.exec(joined);
  if (heading?.[1] && collapse(heading[1]) !== "") return { type: "heading", text: collapse(heading[1]) };

  if (lines.every((line) => BULLET.test(line))) {
    const items = lines.map((line) => collapse(line.replace(BULLET, ""))).filter(Boolean);
    if (items.length > 0) return { type: "list", items };
  }

  return { type: "paragraph", text: collapse(joined) };
}

export function parseArticleBlocks(content: string): ArticleBlock[] {
  return content
    .replace(/\r\n?/g, "\n")
    .split(/\n[ \t]*\n/)
    .map(parseBlock)
    .filter((block): block is ArticleBlock => block !== null);
}
