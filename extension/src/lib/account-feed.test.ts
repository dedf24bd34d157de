import { describe, expect, it } from "vitest";
import { createAccountFeed, type AccountPort } from "./account-feed";
import { applyAccountMessage, type AccountMessage } from "./live-account";

const credits = (available: number) => ({ balance: available, held: 0, available });

function port() {
  const sent: AccountMessage[] = [];
  const listeners: (() => void)[] = [];
  const value: AccountPort = {
    postMessage: (message) => void sent.push(message),
    onDisconnect: { addListener: (listener) => void listeners.push(listener) },
  };
  return { value, sent, disconnect: () => listeners.forEach((l) => l()) };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("the panel's account feed (the realtime socket, opened by the background)", () => {
  it("opens one socket with the stored token while a panel listens, passes its messages on, and closes it after", async () => {
    const opened: string[] = [];
    let push: (message: AccountMessage) => void = () => undefined;
    let closed = 0;
    const feed = createAccountFeed({
      apiKey: async () => "cc_token",
      connect: (apiKey, onMessage) => {
        opened.push(apiKey);
        push = onMessage;
        return () => void closed++;
      },
    });
    const a = port();
    const b = port();
    feed.connect(a.value);
    feed.connect(b.value);
    await settle();
    expect(opened).toEqual(["cc_token"]);
    push({ v: 1, type: "credits", seq: 2, data: credits(98) });
    expect(a.sent).toEqual([{ v: 1, type: "credits", seq: 2, data: credits(98) }]);
    expect(b.sent).toEqual(a.sent);
    a.disconnect();
    expect(closed).toBe(0);
    b.disconnect();
    expect(closed).toBe(1);
  });

  it("opens nothing when signed out", async () => {
    let opened = 0;
    const feed = createAccountFeed({ apiKey: async () => null, connect: () => (opened++, () => undefined) });
    feed.connect(port().value);
    await settle();
    expect(opened).toBe(0);
  });
});

describe("a realtime message applied to the balance shown", () => {
  const shown = { credits: credits(100), plan: "free" };
  it("takes the account's own balance and plan", () => {
    expect(applyAccountMessage(shown, { v: 1, type: "credits", seq: 1, data: credits(98) }, false)).toEqual({
      credits: credits(98),
      plan: "free",
    });
    expect(applyAccountMessage(shown, { v: 1, type: "teamCredits", seq: 1, data: credits(5) }, false)).toEqual(shown);
  });
  it("a team member follows the team's balance only", () => {
    expect(applyAccountMessage(shown, { v: 1, type: "credits", seq: 1, data: credits(98) }, true)).toEqual(shown);
    expect(applyAccountMessage(shown, { v: 1, type: "teamCredits", seq: 1, data: credits(500) }, true)).toEqual({
      credits: credits(500),
      plan: "free",
    });
  });
});
