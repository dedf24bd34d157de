/** Help Center content: category tiles and the popular article list, with the search the page uses. */

export type HelpIcon = "rocket" | "puzzle" | "scissors" | "card" | "wrench" | "chat";

export interface HelpCategory {
  id: string;
  title: string;
  description: string;
  icon: HelpIcon;
  /** Only Contact Support is a link. */
  href?: string;
}

export interface HelpArticle {
  id: string;
  title: string;
  category: string;
  summary: string;
  /** The answer, shown when the article is opened. */
  body: readonly string[];
}

export const HELP_CATEGORIES: readonly HelpCategory[] = [
  {
    id: "getting-started",
    title: "Getting Started",
    description: "Install ClipCut and make your first clip in minutes.",
    icon: "rocket",
  },
  {
    id: "extension",
    title: "Browser Extension",
    description: "Set up the extension in Chrome, Firefox or Edge.",
    icon: "puzzle",
  },
  {
    id: "clipping",
    title: "Cutting & Exporting",
    description: "Handles, previews, formats and quality options.",
    icon: "scissors",
  },
  {
    id: "billing",
    title: "Plans & Billing",
    description: "Credits, plans, upgrades, refunds and invoices.",
    icon: "card",
  },
  {
    id: "troubleshooting",
    title: "Troubleshooting",
    description: "Fixes for the most common problems.",
    icon: "wrench",
  },
  {
    id: "contact",
    title: "Contact Support",
    description: "Still stuck? Our team replies within about 24 hours.",
    icon: "chat",
    href: "/contact",
  },
];

export const HELP_ARTICLES: readonly HelpArticle[] = [
  {
    id: "install-extension",
    title: "How do I install the ClipCut extension?",
    category: "Getting Started",
    summary: "Add ClipCut to Chrome, Firefox or Edge from the Download page.",
    body: [
      "Open the Download page, pick your browser and select the install button. Your browser's extension store opens; choose Add to browser and confirm.",
      "Pin ClipCut to your toolbar so it is one click away, then sign in with your ClipCut account to connect the extension.",
    ],
  },
  {
    id: "first-clip",
    title: "Creating your first clip",
    category: "Getting Started",
    summary: "Open a video, set the start and end handles, and export.",
    body: [
      "Open any video page and select the ClipCut icon. Drag the start and end handles, or type times as ss, mm:ss or hh:mm:ss.",
      "Press play to preview: the preview loops from your start to your end. When it sounds right, choose a format and a quality and create the clip.",
    ],
  },
  {
    id: "credits",
    title: "How do credits work?",
    category: "Plans & Billing",
    summary: "Each clip costs credits depending on its length and quality.",
    body: [
      "A clip costs about 1 credit for every 30 seconds, more at higher qualities: a short 720p clip costs about 2 credits and a long 4K clip about 20.",
      "The Free plan includes 100 one-time credits. Paid plans add a fresh allowance every month. You can see every credit you spend on the Credits page.",
    ],
  },
  {
    id: "formats",
    title: "Which formats and qualities can I export?",
    category: "Cutting & Exporting",
    summary: "MP4, MKV, WebM, AVI and MOV video; MP3 and WAV audio; 144p to 4K.",
    body: [
      "Video exports as MP4, MKV, WebM, AVI or MOV, and audio as MP3 or WAV. MP4 and MP3 are available on every plan; the other formats come with the paid plans.",
      "Quality ranges from 144p to 4K. Free exports go up to 720p, Basic up to 1080p, and Advanced and Pro up to 4K.",
    ],
  },
  {
    id: "watermark",
    title: "How do I remove the watermark?",
    category: "Plans & Billing",
    summary: "Exports on the Free plan carry a watermark; every paid plan removes it.",
    body: [
      "Clips made on the Free plan carry a small ClipCut watermark. Upgrade to Basic, Advanced or Pro and new exports are watermark-free.",
    ],
  },
  {
    id: "refund",
    title: "Can I get a refund?",
    category: "Plans & Billing",
    summary: "New subscriptions have a 14-day money-back guarantee.",
    body: [
      "If ClipCut is not right for you, contact support within 14 days of starting a new subscription and we will refund the payment in full.",
    ],
  },
  {
    id: "extension-not-detected",
    title: "The website says the extension is not detected",
    category: "Troubleshooting",
    summary: "Check that the extension is enabled and signed in, then reload the page.",
    body: [
      "Open your browser's extension settings and make sure ClipCut is enabled. Sign in to the extension with the same account you use on the website.",
      "Reload the page you are clipping from. If the problem stays, remove and reinstall the extension from the Download page.",
    ],
  },
  {
    id: "safari",
    title: "Is there a ClipCut extension for Safari?",
    category: "Browser Extension",
    summary: "Safari support is coming soon. Leave your email to hear first.",
    body: [
      "We are working on Safari. Open the Download page and select Notify Me on the Safari card: we will send one email when it is ready.",
    ],
  },
];

/** Lower-case words of a query, empty when there is nothing to search for. */
function terms(query: string): string[] {
  return query.toLowerCase().split(/\s+/).filter(Boolean);
}

/**
 * Articles matching every word of `query` (case-insensitive) in their title, category, summary or body.
 * An empty query matches everything.
 */
export function searchHelpArticles(query: string, articles: readonly HelpArticle[] = HELP_ARTICLES): HelpArticle[] {
  const words = terms(query);
  if (words.length === 0) return [...articles];
  return articles.filter((article) => {
    const haystack = [article.title, article.category, article.summary, ...article.body].join(" ").toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}

/** A search query from the URL, trimmed and bounded. */
export function normalizeHelpQuery(raw: string | null): string {
  return (raw ?? "").trim().slice(0, 100);
}
