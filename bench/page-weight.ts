/**
 * JavaScript each public page loads, raw and gzipped (what the edge would send), measured in real Chromium.
 * Run against a running server: BASE=http://localhost:8787 npx tsx bench/page-weight.ts
 */
import { chromium } from "@playwright/test";
import { gzipSync } from "node:zlib";
import { CHROMIUM_LAUNCH } from "../tests/chromium";

const BASE = process.env.BASE ?? "http://localhost:8787";
const PAGES = [
  "/",
  "/features",
  "/pricing",
  "/about",
  "/help",
  "/contact",
  "/download",
  "/blog",
  "/blog/how-to-clip-a-youtube-video",
  "/privacy",
  "/terms",
  "/clip",
];

const browser = await chromium.launch(CHROMIUM_LAUNCH);
const rows = [];
for (const path of PAGES) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const scripts = new Map<string, Buffer>();
  page.on("response", async (response) => {
    if (response.request().resourceType() !== "script") return;
    try {
      scripts.set(response.url(), await response.body());
    } catch {
      // redirected or aborted
    }
  });
  await page.goto(BASE + path, { waitUntil: "networkidle" });
  const bodies = [...scripts.values()];
  const raw = bodies.reduce((n, b) => n + b.length, 0);
  const gz = bodies.reduce((n, b) => n + gzipSync(b, { level: 9 }).length, 0);
  const html = gzipSync(Buffer.from(await page.content())).length;
  rows.push({
    page: path,
    scripts: bodies.length,
    "JS raw KB": (raw / 1024).toFixed(1),
    "JS gzip KB": (gz / 1024).toFixed(1),
    "HTML gzip KB": (html / 1024).toFixed(1),
  });
  await context.close();
}
await browser.close();
console.table(rows);
