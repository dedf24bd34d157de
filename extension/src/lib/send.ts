import { browser } from "wxt/browser";
import type { InternalMessage, Result } from "./messages";

/** Ask the background; a dead extension context (after an update) answers like any other failure. */
export async function ask<T>(message: InternalMessage): Promise<Result<T>> {
  try {
    return (await browser.runtime.sendMessage(message)) as Result<T>;
  } catch {
    return { ok: false, failure: { kind: "other", message: "The extension was updated. Reload this page." } };
  }
}

export async function askRaw<T>(message: InternalMessage): Promise<T | null> {
  try {
    return (await browser.runtime.sendMessage(message)) as T;
  } catch {
    return null;
  }
}
