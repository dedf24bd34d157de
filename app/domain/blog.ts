/** The blog's built-in articles (spec section 3, "Blog article"). Dates are ISO 8601 in UTC. */
export interface BlogArticle {
  id: number;
  slug: string;
  title: string;
  metaTitle: string;
  metaDescription: string;
  /** Plain text: see parseArticleBlocks for the format. */
  content: string;
  category: string;
  createdAt: string;
  updatedAt: string;
  excerpt: string;
  /** A local illustration under /blog. */
  imageUrl: string;
  imageAlt: string;
}

export const BLOG_ARTICLES: readonly BlogArticle[] = [
  {
    id: 1,
    slug: "how-to-clip-a-youtube-video",
    title: "How to Clip a YouTube Video in Three Simple Steps",
    metaTitle: "How to Clip a YouTube Video in 3 Steps | ClipCut",
    metaDescription:
      "A step-by-step guide to cutting a clip from a YouTube video: pick the moment, preview it, and export it in the right format.",
    category: "Tutorials",
    createdAt: "2025-01-14T09:00:00.000Z",
    updatedAt: "2025-01-20T09:00:00.000Z",
    excerpt:
      "Pick the moment, preview it and export it. Here is the quickest way to turn a long video into a short, shareable clip.",
    imageUrl: "/blog/clip-a-youtube-video.svg",
    imageAlt: "A video player with a highlighted section on its timeline between a start and an end handle",
    content: `Long videos are full of short moments worth sharing: a punchline, a key quote, a goal. Cutting them out used to mean downloading the whole video and opening a video editor. With ClipCut it takes three steps and about a minute.

**Step 1: Find your moment**

Open the video in your browser and start the ClipCut extension, or paste the link into the Video Cutter on our website. Play the video until you reach the part you want, and note roughly where it starts and ends.

**Step 2: Set the start and end**

Drag the two handles on the timeline to frame your clip. For frame-perfect results, type the times instead. ClipCut understands three ways of writing a time:

* Seconds only, such as 95
* Minutes and seconds, such as 1:35
* Hours, minutes and seconds, such as 0:01:35

If you type a time that does not fit, for example an end before the start, ClipCut simply restores the last valid value so you never lose your place.

**Step 3: Preview and export**

Press play to hear your clip. The preview starts at your start handle and loops back to it when it reaches the end, so you can listen to the cut as many times as you like while you adjust it. When it sounds right, choose a format and a quality and create the clip.

**A few tips**

* Leave half a second before the first word so your clip does not start mid-sentence
* Use the 10-second skip buttons to move around long videos quickly
* Pick MP3 if you only need the audio; it costs fewer credits than high-quality video

That is all there is to it. Install the extension from the Download page and make your first clip today: the Free plan includes 100 credits to get you started.`,
  },
  {
    id: 2,
    slug: "best-clip-length-for-social-media",
    title: "The Best Clip Length for Every Social Platform",
    metaTitle: "The Best Clip Length for Social Media in 2025 | ClipCut",
    metaDescription:
      "How long should your clips be? Recommended lengths for Shorts, Reels, TikTok and X, and how to keep viewers watching to the end.",
    category: "Creator Tips",
    createdAt: "2025-02-03T09:00:00.000Z",
    updatedAt: "2025-02-03T09:00:00.000Z",
    excerpt:
      "Shorter is not always better. Here is how long your clips should be on each platform, and how to make every second count.",
    imageUrl: "/blog/clip-length-social-media.svg",
    imageAlt: "Three phone screens showing vertical video clips of different lengths",
    content: `Every platform rewards clips that people watch to the end. The right length is the shortest one that still tells the whole moment. Here is where to start on the platforms creators use most.

**Recommended lengths**

* YouTube Shorts: 20 to 45 seconds, up to a maximum of 60
* Instagram Reels: 15 to 30 seconds for reach, longer for tutorials
* TikTok: 20 to 40 seconds for most content
* X (Twitter): 30 to 45 seconds, since many people scroll with the sound off

**Start with the hook**

Viewers decide within the first two seconds whether to keep watching. Cut straight into the moment instead of the build-up: start on the question, the reaction or the first line of the joke. With ClipCut you can move the start handle a second at a time and preview until the opening lands.

**Cut the ending early**

Most clips run a few seconds too long. End on the punchline or the answer, not on the laughter afterwards. A clip that ends a little early gets replayed; one that drags gets skipped.

**Match your plan to your clips**

The Free plan makes clips of up to 60 seconds, which covers Shorts, Reels and TikTok. If you cut longer highlights for YouTube or for podcasts, the paid plans allow clips of up to 90, 120 or 180 seconds.

Test different lengths, look at how long people watch, and let your audience tell you what works.`,
  },
  {
    id: 3,
    slug: "mp4-mkv-mp3-or-wav",
    title: "MP4, MKV, MP3 or WAV: Which Format Should You Choose?",
    metaTitle: "MP4 vs MKV vs MP3 vs WAV: Choosing a Format | ClipCut",
    metaDescription:
      "A plain-language guide to the video and audio formats ClipCut exports, and which one to pick for social media, editing or podcasts.",
    category: "Guides",
    createdAt: "2025-03-10T09:00:00.000Z",
    updatedAt: "2025-03-12T09:00:00.000Z",
    excerpt:
      "Video or audio, compatible or lossless: a quick guide to picking the right export format for where your clip is going.",
    imageUrl: "/blog/choosing-a-format.svg",
    imageAlt: "Four file icons labelled MP4, MKV, MP3 and WAV",
    content: `ClipCut exports video as MP4, MKV, WebM, AVI or MOV, and audio as MP3 or WAV. Most of the time you only need one of four. Here is how to choose.

**MP4: the safe choice for video**

MP4 plays on every phone, browser and social platform. If you are posting a clip online or sending it to a friend, choose MP4. It is available on every plan.

**MKV: for editing**

MKV is a container that keeps every audio and subtitle track together. It is a good choice when the clip goes into a video editor rather than straight onto social media. MKV export comes with the paid plans.

**MP3: audio for sharing**

MP3 files are small and play everywhere. Choose MP3 for podcast snippets, voice notes and music samples you want to share. Like MP4, it is available on every plan, and audio clips cost fewer credits than video.

**WAV: audio for production**

WAV is uncompressed, so it keeps every detail of the sound. Choose it when the audio goes into a mixing or editing session. WAV export comes with the paid plans.

**The short version**

* Posting online: MP4
* Editing video: MKV
* Sharing audio: MP3
* Producing audio: WAV

Whichever you choose, ClipCut processes your clip on your own computer, so the export is ready as soon as it is cut.`,
  },
];

/** Articles newest first (by createdAt). */
export function sortedArticles(articles: readonly BlogArticle[] = BLOG_ARTICLES): BlogArticle[] {
  return [...articles].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
}

export function findArticle(slug: string, articles: readonly BlogArticle[] = BLOG_ARTICLES): BlogArticle | undefined {
  return articles.find((article) => article.slug === slug);
}

/** "January 14, 2025": fixed to UTC so the server and the browser print the same date. */
export function formatArticleDate(iso: string): string {
  return new Date(iso).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });
}

/** About 200 words a minute, at least one. */
export function readingMinutes(content: string): number {
  const words = content.split(/\s+/).filter(Boolean).length;
  return Math.max(1, Math.round(words / 200));
}
