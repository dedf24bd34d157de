import { browser } from "wxt/browser";
import type { MessageOf, MessageType, ReplyOf } from "./messages";

/** The messages the popup and the panel send; the bridge relays site messages with runtime.sendMessage itself. */
type AskType = Exclude<MessageType, "site">;

/**
 * Ask the background, typed by the message map: the reply type follows from the message, and a message the map
 * does not know fails to compile. A dead extension context (after an update) answers like any other failure.
 */
export async function ask<K extends AskType>(message: MessageOf<K>): Promise<ReplyOf<K>> {
  try {
    return (await browser.runtime.sendMessage(message)) as ReplyOf<K>;
  } catch {
    return {
      ok: false,
      failure: { kind: "other", message: "The extension was updated. Reload this page." },
    } as ReplyOf<K>;
  }
}
