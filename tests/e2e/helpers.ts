import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { FAKE_GOOGLE_URL } from "../../playwright.config";

export const DEMO_PASSWORD = "ClipCut-demo-1";
export const DEMO_CREATOR = "creator@clipcut.local";
export const DEMO_ADMIN = "admin@clipcut.local";

export const uniqueEmail = (tag: string) => `${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

interface OutboxMessage {
  to: string;
  subject: string;
  links: string[];
}

/** The newest link e-mailed to an address (local outbox), waiting briefly for it. */
export async function latestLink(request: APIRequestContext, to: string, pathPrefix: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(async () => {
      const res = await request.get("/dev/outbox");
      const { messages } = (await res.json()) as { messages: OutboxMessage[] };
      link = messages.find((m) => m.to === to && m.links.some((l) => new URL(l).pathname.startsWith(pathPrefix)))
        ?.links[0];
      return link;
    })
    .toBeTruthy();
  return new URL(link ?? "").pathname;
}

export async function signIn(page: Page, email: string, password: string) {
  await page.goto("/signin");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** Waits until Remix has taken the page over: a link clicked before that is a full page load, with none of the
 *  client's in-between states (a busy machine can take seconds to run the page's scripts). */
export async function hydrated(page: Page) {
  await page.waitForFunction(() => (window as unknown as { __remixRouter?: RemixRouter }).__remixRouter !== undefined);
}

/** Waits for the signed-in layout and reads, from the router's own state, whether this session's maintenance notice
 *  is due: no fixed wait when it is not. */
export async function noticeDue(page: Page): Promise<boolean> {
  const handle = await page.waitForFunction(() => {
    const router = (window as unknown as { __remixRouter?: RemixRouter }).__remixRouter;
    if (!router || router.state.navigation.state !== "idle") return undefined;
    const layout = router.state.loaderData["routes/_app"];
    return layout ? { due: layout.showMaintenanceNotification === true } : undefined;
  });
  return ((await handle.jsonValue()) as { due: boolean }).due;
}
interface RemixRouter {
  state: {
    navigation: { state: string };
    loaderData: Record<string, { showMaintenanceNotification?: boolean } | undefined>;
  };
}

/** Closes the maintenance notice when this session has it due (it shows 500 ms after entering the signed-in area),
 *  and waits until the server has cleared the flag and the page has revalidated. */
export async function dismissNotice(page: Page) {
  if (!(await noticeDue(page))) return;
  const button = page.getByRole("button", { name: "Got it" });
  await button.waitFor();
  // The fetcher posts, then Remix revalidates the page's loaders (a streamed GET of .data): wait for both to finish.
  const revalidated = page.waitForResponse((r) => r.request().method() === "GET" && r.url().includes(".data"));
  await Promise.all([page.waitForResponse((r) => r.url().includes("/notice/dismiss")), button.click()]);
  // Signed-in data is sent `no-store`, and Chromium then never reports such a response "finished" to Playwright:
  // wait for its arrival and for the modal to go instead.
  await revalidated;
  await expect(button).toBeHidden();
}

export async function signUp(page: Page, request: APIRequestContext, name: string, email: string, password: string) {
  await page.goto("/signup");
  await page.getByLabel("Full name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByLabel("Confirm password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign up", exact: true }).click();
  await expect(page.getByRole("status")).toHaveText(
    "Sign-up successful! Please check your email to verify your account.",
  );
  const link = await latestLink(request, email, "/verify-email/");
  // Opening the link only shows the page; this browser signed up, so one click confirms and signs in.
  await page.goto(link);
  await page.getByRole("button", { name: "Confirm my e-mail" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

export async function nextGoogleIdentity(
  identity: { sub: string; email: string; name: string; email_verified?: boolean } | { error: string },
) {
  const res = await fetch(`${FAKE_GOOGLE_URL}/__control/next`, { method: "POST", body: JSON.stringify(identity) });
  expect(res.ok).toBe(true);
}

export interface NewUser {
  userId: string;
  email: string;
  password: string;
}

/**
 * A confirmed account with the plan, credits and role the test needs, signed in in `page`'s browser context: the
 * local-only fixture POST /dev/users (404 outside local mode). Only auth.spec signs up through the form and only
 * payments.spec pays through the checkout; every other test starts here.
 */
export async function newUser(
  page: Page,
  options: {
    name?: string;
    email?: string;
    password?: string;
    plan?: "Free" | "Basic" | "Advanced" | "Pro";
    credits?: number;
    role?: "user" | "admin";
  } = {},
): Promise<NewUser> {
  const email = options.email ?? uniqueEmail("fixture");
  const password = options.password ?? "fixture long passphrase";
  const form: Record<string, string> = {
    email,
    password,
    fullName: options.name ?? "Test User",
    plan: options.plan ?? "Free",
    role: options.role ?? "user",
  };
  if (options.credits !== undefined) form.credits = String(options.credits);
  // page.request shares the context's cookies: the session it answers with signs this browser in.
  const res = await page.request.post("/dev/users", { form });
  expect(res.status(), await res.text()).toBe(200);
  const { userId } = (await res.json()) as { userId: string };
  return { userId, email, password };
}

/** A new account from the fixture, on its dashboard with the maintenance notice closed, as after a sign-up. */
export async function newUserOnDashboard(page: Page, options: Parameters<typeof newUser>[1] = {}): Promise<NewUser> {
  const user = await newUser(page, options);
  await page.goto("/dashboard");
  await dismissNotice(page);
  return user;
}
