import { describe, expect, it } from "vitest";
import { contactSchema, inboxActionSchema, inboxList, replyEmail, statusAfter, supportNotification } from "./inbox";

describe("a contact message's status", () => {
  it("a reply answers it, from any status", () => {
    expect(statusAfter("reply", "new", 0)).toBe("answered");
    expect(statusAfter("reply", "answered", 1)).toBe("answered");
    expect(statusAfter("reply", "closed", 0)).toBe("answered");
  });

  it("close closes an open one; closing a closed one changes nothing", () => {
    expect(statusAfter("close", "new", 0)).toBe("closed");
    expect(statusAfter("close", "answered", 2)).toBe("closed");
    expect(statusAfter("close", "closed", 0)).toBeNull();
  });

  it("reopen goes back to answered if it was ever answered, else new; an open one stays as it is", () => {
    expect(statusAfter("reopen", "closed", 0)).toBe("new");
    expect(statusAfter("reopen", "closed", 3)).toBe("answered");
    expect(statusAfter("reopen", "new", 0)).toBeNull();
    expect(statusAfter("reopen", "answered", 1)).toBeNull();
  });
});

describe("the Inbox's inputs", () => {
  it("a reply needs words, within the limit; unknown intents are refused", () => {
    expect(inboxActionSchema.safeParse({ intent: "reply", body: "  " }).success).toBe(false);
    expect(inboxActionSchema.safeParse({ intent: "reply", body: "x".repeat(5001) }).success).toBe(false);
    expect(inboxActionSchema.parse({ intent: "reply", body: " Thanks! " })).toEqual({
      intent: "reply",
      body: "Thanks!",
    });
    expect(inboxActionSchema.safeParse({ intent: "delete" }).success).toBe(false);
  });

  it("the list's status filter drops what it does not know", () => {
    expect(inboxList.parse(new URLSearchParams("status=closed&page=2"))).toMatchObject({ status: "closed", page: 2 });
    expect(inboxList.parse(new URLSearchParams("status=spam")).status).toBeUndefined();
  });

  it("the contact form lower-cases the address and keeps the topic list", () => {
    const parsed = contactSchema.parse({
      name: " Ada ",
      email: "ADA@Example.com",
      topic: "Billing",
      message: "0123456789",
    });
    expect(parsed).toMatchObject({ name: "Ada", email: "ada@example.com" });
    expect(contactSchema.safeParse({ ...parsed, topic: "Spam" }).success).toBe(false);
  });
});

describe("the e-mails", () => {
  it("support's names the topic and sender on one subject line and links to the message", () => {
    const mail = supportNotification(
      { name: "Ada\nBcc: x", email: "ada@example.com", topic: "Billing", message: "Hello there" },
      "https://clipcut.app/admin/inbox/1",
    );
    expect(mail.subject).toBe("[Contact] Billing from Ada Bcc: x");
    expect(mail.text).toContain("Hello there");
    expect(mail.links).toEqual(["https://clipcut.app/admin/inbox/1"]);
  });

  it("a reply goes to the sender with their message quoted", () => {
    const mail = replyEmail({ email: "ada@example.com", topic: "Billing", message: "Line one\nLine two" }, "Done.");
    expect(mail.to).toBe("ada@example.com");
    expect(mail.subject).toBe("Re: your message to ClipCut (Billing)");
    expect(mail.text).toMatch(/^Done\.\n[\s\S]*> Line one\n> Line two$/);
  });
});
