/**
 * window.postMessage envelopes of the Firefox bridge (Firefox has no externally_connectable). Kept apart from the
 * schemas so that the bridge content script stays a few hundred bytes.
 */
export const PAGE_SOURCE = "clipcut-page";
export const EXTENSION_SOURCE = "clipcut-extension";
