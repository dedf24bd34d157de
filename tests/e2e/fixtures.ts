import { closeSync, mkdirSync, openSync } from "node:fs";
import { join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Browser, type Page } from "@playwright/test";
import { apiRequest } from "./api-request";
import { DEMO_ADMIN, DEMO_CREATOR, DEMO_PASSWORD, dismissNotice, signIn } from "./helpers";

/**
 * Fails on any serious or critical accessibility violation of the page as it is now. One axe.run in the page (legacy
 * mode): the default runs axe in each frame, then opens a blank page, injects axe's 0.5 MB there again and merges the
 * results in it (~1 s of a 3 s scan here). Our pages have no frame of our own origin to scan; only violations are
 * collected, the only result read.
 */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page })
    .setLegacyMode(true)
    .options({ resultTypes: ["violations"] })
    .analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    bad.map((v) => `${page.url()} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`),
    "accessibility violations",
  ).toEqual([]);
}

/** One screen per route shape: ids, tokens and numbers in the path are the same screen. */
export function screenOf(url: string): string {
  return new URL(url).pathname
    .split("/")
    .map((part) => (/\d/.test(part) && part.length >= 6 ? ":id" : /^\d+$/.test(part) ? ":n" : part))
    .join("/");
}

/**
 * Axe runs once per screen and run, on the first visit by any worker (a scan costs 1–3 s, more on a busy machine):
 * a marker file per screen, created atomically, in the project's output folder (Playwright empties it at start).
 */
function firstVisit(outputDir: string, screen: string): boolean {
  const scanned = join(outputDir, ".axe-scanned");
  mkdirSync(scanned, { recursive: true });
  try {
    closeSync(openSync(join(scanned, encodeURIComponent(screen)), "wx"));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

export type Role = "admin" | "creator";
const ROLE_ACCOUNTS: Record<Role, string> = { admin: DEMO_ADMIN, creator: DEMO_CREATOR };

/** Signs a demo account in once per worker and keeps the cookies; tests that only need "an admin" start there. */
async function signInOnce(browser: Browser, baseURL: string, role: Role, workerIndex: number): Promise<string> {
  const dir = join("test-results", ".auth");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${role}-${workerIndex}.json`);
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signIn(page, ROLE_ACCOUNTS[role], DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  await dismissNotice(page);
  await context.storageState({ path: file });
  await context.close();
  return file;
}

/** Every page.goto runs axe-core on the screen it reached, the first time this run reaches that screen. */
function scanOnFirstVisit(page: Page, outputDir: string): Page {
  const goto = page.goto.bind(page);
  page.goto = async (url, options) => {
    const response = await goto(url, options);
    const screen = screenOf(page.url());
    if (screen !== "/dev/outbox" && firstVisit(outputDir, screen)) await expectAccessible(page);
    return response;
  };
  return page;
}

export const test = base.extend<
  {
    /** Starts `page` signed in as a demo account (`test.use({ role: "admin" })`). */
    role: Role | undefined;
    visit: (path: string, status?: number) => Promise<void>;
    /** A page in a new context signed in as a demo account (its session is shared by this worker's tests). */
    pageAs: (role: Role) => Promise<Page>;
  },
  { roleState: (role: Role) => Promise<string> }
>({
  ...apiRequest,
  roleState: [
    async ({ browser }, use, workerInfo) => {
      const baseURL = String(workerInfo.project.use.baseURL);
      const files = new Map<Role, Promise<string>>();
      await use((role) => {
        if (!files.has(role)) files.set(role, signInOnce(browser, baseURL, role, workerInfo.workerIndex));
        return files.get(role) as Promise<string>;
      });
    },
    { scope: "worker" },
  ],
  role: [undefined, { option: true }],
  storageState: async ({ role, roleState }, use) => {
    await use(role ? await roleState(role) : undefined);
  },
  page: async ({ page }, use, testInfo) => {
    await use(scanOnFirstVisit(page, testInfo.project.outputDir));
  },
  pageAs: async ({ browser, roleState }, use, testInfo) => {
    const contexts: { close(): Promise<void> }[] = [];
    await use(async (role) => {
      const context = await browser.newContext({ storageState: await roleState(role) });
      contexts.push(context);
      return scanOnFirstVisit(await context.newPage(), testInfo.project.outputDir);
    });
    for (const context of contexts) await context.close();
  },
  /** A visit that also checks the status code. */
  visit: async ({ page }, use) => {
    await use(async (path, status = 200) => {
      const response = await page.goto(path);
      expect(response?.status(), `status of ${path}`).toBe(status);
    });
  },
});

export { expect };
