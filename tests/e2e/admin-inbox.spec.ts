import { parseCsv } from "../../app/domain/csv";
import { SITE } from "../../app/domain/site";
import { expect, test } from "./fixtures";
import { uniqueEmail } from "./helpers";

interface OutboxMessage {
  to: string;
  subject: string;
  text: string;
  links: string[];
}

test.use({ role: "admin" });

test("a contact message reaches support and the Inbox; the admin's reply e-mails the sender and answers it", async ({
  page,
  browser,
  request,
}) => {
  const email = uniqueEmail("inbox");
  const name = `Inbox Visitor ${Date.now()}`;
  // A visitor, signed out, writes through the Contact page.
  const visitor = await browser.newContext();
  const form = await visitor.newPage();
  await form.goto("/contact");
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Topic").selectOption("Technical support");
  await form.getByLabel("Message", { exact: true }).fill("The Clip button does not show under my video.");
  await form.getByRole("button", { name: "Send message" }).click();
  await expect(form.getByRole("status")).toContainText(`Thanks, ${name}! Your message has been sent.`);
  await visitor.close();

  const outbox = async () =>
    ((await (await request.get("/dev/outbox")).json()) as { messages: OutboxMessage[] }).messages;
  const toSupport = (await outbox()).find((m) => m.to === SITE.supportEmail && m.text.includes(email));
  expect(toSupport?.subject).toBe(`[Contact] Technical support from ${name}`);
  const link = new URL(toSupport?.links[0] ?? "");

  // The Inbox lists it as new; its row opens the message (the same page support's e-mail links to).
  await page.goto("/admin/inbox");
  await expect(page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Inbox" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  const row = page.getByTestId("inbox-row").filter({ hasText: email });
  await expect(row.getByText("New", { exact: true })).toBeVisible();
  await row.getByRole("link", { name: new RegExp(`Open the message from ${name}`) }).click();
  await expect(page).toHaveURL(new RegExp(`${link.pathname}$`));
  await page.goto(link.pathname); // axe scans the message screen on its first visit
  await expect(page.getByRole("heading", { name: `Message from ${name}` })).toBeVisible();
  await expect(page.getByText("The Clip button does not show under my video.")).toBeVisible();

  await page.getByLabel(`Your reply to ${email}`).fill("Please update the extension to 1.4 and reload the tab.");
  await page.getByRole("button", { name: "Send reply" }).click();
  await expect(page.getByRole("status")).toHaveText(`Reply sent to ${email}. The message is marked answered.`);
  await expect(page.getByTestId("inbox-status")).toHaveText("Answered");
  await expect(page.getByTestId("inbox-reply")).toContainText("Please update the extension to 1.4");
  await expect(page.getByLabel(`Your reply to ${email}`)).toHaveValue("");
  const reply = (await outbox()).find((m) => m.to === email);
  expect(reply?.subject).toBe("Re: your message to ClipCut (Technical support)");
  expect(reply?.text).toContain("Please update the extension to 1.4 and reload the tab.");
  expect(reply?.text).toContain("> The Clip button does not show under my video.");

  await page.getByRole("button", { name: "Close message" }).click();
  await expect(page.getByRole("status")).toHaveText("Message closed.");
  await expect(page.getByTestId("inbox-status")).toHaveText("Closed");
  await page.getByRole("link", { name: "Back to the inbox" }).click();
  await expect(page.getByTestId("inbox-row").filter({ hasText: email }).getByText("Closed")).toBeVisible();
});

test("Notify Me sign-ups from the Download page export as CSV from the Inbox", async ({ page, browser }) => {
  const email = uniqueEmail("notify");
  const visitor = await browser.newContext();
  const download = await visitor.newPage();
  await download.goto("/download");
  await download.getByLabel(/email/i).fill(email);
  await download.getByRole("button", { name: /notify me/i }).click();
  await expect(download.getByText("Thanks! We'll email you when ClipCut for Safari is ready.")).toBeVisible();
  await visitor.close();

  await page.goto("/admin/inbox");
  const exportLink = page.getByRole("link", { name: "Export Notify Me sign-ups (CSV)" });
  await expect(exportLink).toHaveAttribute("download", "notify_me_signups.csv");
  const res = await page.request.get((await exportLink.getAttribute("href")) ?? "");
  expect(res.headers()["content-disposition"]).toContain("notify_me_signups.csv");
  const rows = parseCsv(await res.text());
  expect(rows[0]).toEqual(["Email", "Product", "Signed Up (UTC)"]);
  expect(rows.some((r) => r[0] === email && r[1] === "safari")).toBe(true);
});
