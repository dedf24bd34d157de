/**
 * A small key-value store in the extension origin's IndexedDB. Content scripts run with the web page's IndexedDB,
 * and storage.local is open to them in Chrome and Firefox, so the tokens live here: only the background (and our
 * own pages) can read them, and they survive a browser restart, unlike storage.session.
 */
const DB = "clipcut";
const STORE = "secrets";

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

let db: Promise<IDBDatabase> | null = null;

async function transaction(mode: IDBTransactionMode) {
  db ??= open();
  const tx = (await db).transaction(STORE, mode);
  const done = new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
  return { store: tx.objectStore(STORE), done };
}

export async function readSecrets(keys: readonly string[]): Promise<Record<string, unknown>> {
  const { store, done } = await transaction("readonly");
  const requests = keys.map((key) => [key, store.get(key)] as const);
  await done;
  return Object.fromEntries(
    requests.filter(([, request]) => request.result !== undefined).map(([key, request]) => [key, request.result]),
  );
}

/** Sets the given keys; a null value removes the key. */
export async function writeSecrets(patch: Record<string, unknown>): Promise<void> {
  const { store, done } = await transaction("readwrite");
  for (const [key, value] of Object.entries(patch)) {
    if (value === null || value === undefined) store.delete(key);
    else store.put(value, key);
  }
  await done;
}
