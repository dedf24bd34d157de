/** What a person reads on a server-rendered page: tags removed, entities decoded, white space collapsed. */
export function visibleText(html: string): string {
  const body = html
    .replace(/<script[\s\S]*?<\/script>/gi, " ")
    .replace(/<style[\s\S]*?<\/style>/gi, " ")
    .replace(/<[^>]+>/g, " ");
  return decode(body).replace(/\s+/g, " ").trim();
}

/** The text of each element matching `open` (an opening-tag pattern) up to its closing tag, e.g. headings. */
export function textsOf(html: string, tag: string, attrs = ""): string[] {
  const re = new RegExp(`<${tag}\\b[^>]*${attrs}[^>]*>([\\s\\S]*?)</${tag}>`, "gi");
  return [...html.matchAll(re)].map((m) => visibleText(m[1] ?? ""));
}

/** Decoded values of one attribute (placeholder, aria-label…) wherever it appears. */
export function attributeValues(html: string, name: string): string[] {
  return [...html.matchAll(new RegExp(`\\s${name}="([^"]*)"`, "g"))].map((m) => decode(m[1] ?? ""));
}

/** The breadcrumb as read aloud: "Home / Overviews". */
export function breadcrumb(html: string): string {
  const nav = html.match(/<nav aria-label="Breadcrumb"[^>]*>([\s\S]*?)<\/nav>/);
  return visibleText(nav?.[1] ?? "");
}

function decode(text: string): string {
  return text
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&nbsp;/g, "\u00a0")
    .replace(/&amp;/g, "&");
}
