import { describe, expect, it } from "vitest";
import { parseArticleBlocks } from "./article-blocks";

describe("parseArticleBlocks", () => {
  it("returns no blocks for empty or blank content", () => {
    expect(parseArticleBlocks("")).toEqual([]);
    expect(parseArticleBlocks("  \n\n \n")).toEqual([]);
  });

  it("treats a block wrapped in double asterisks as a heading", () => {
    expect(parseArticleBlocks("**Why clip length matters**")).toEqual([
      { type: "heading", text: "Why clip length matters" },
    ]);
  });

  it("treats a block whose lines all start with '* ' as a bullet list", () => {
    expect(parseArticleBlocks("* First point\n* Second point\n*   Third point")).toEqual([
      { type: "list", items: ["First point", "Second point", "Third point"] },
    ]);
  });

  it("treats anything else as a paragraph and joins its lines with spaces", () => {
    expect(parseArticleBlocks("A paragraph\nthat wraps.")).toEqual([
      { type: "paragraph", text: "A paragraph that wraps." },
    ]);
  });

  it("splits on blank lines and keeps the order of blocks", () => {
    const content = "Intro text.\n\n**Steps**\n\n* One\n* Two\n\nOutro.";
    expect(parseArticleBlocks(content).map((block) => block.type)).toEqual([
      "paragraph",
      "heading",
      "list",
      "paragraph",
    ]);
  });

  it("accepts Windows line endings and blank lines holding only spaces", () => {
    expect(parseArticleBlocks("First.\r\n  \r\nSecond.")).toEqual([
      { type: "paragraph", text: "First." },
      { type: "paragraph", text: "Second." },
    ]);
  });

  it("does not read a list item with bold text as a heading", () => {
    expect(parseArticleBlocks("* **Bold** item")).toEqual([{ type: "list", items: ["**Bold** item"] }]);
  });

  it("keeps a block that only partly starts with '* ' as a paragraph", () => {
    expect(parseArticleBlocks("Some intro\n* not a list")).toEqual([
      { type: "paragraph", text: "Some intro * not a list" },
    ]);
  });

  it("treats unclosed or empty asterisks as a paragraph", () => {
    expect(parseArticleBlocks("**Not closed")).toEqual([{ type: "paragraph", text: "**Not closed" }]);
    expect(parseArticleBlocks("****")).toEqual([{ type: "paragraph", text: "****" }]);
  });

  it("treats '*text' without a space as a paragraph", () => {
    expect(parseArticleBlocks("*emphasis*")).toEqual([{ type: "paragraph", text: "*emphasis*" }]);
  });
});
