/**
 * Local only: what every part of the Stripe stand-in shares — the store it keeps Stripe's books in (its clock, its
 * objects, the events Stripe would send), ids, Stripe's form encoding, errors and list paging.
 */
import type Stripe from "stripe";
import { list, priceObject } from "./stripe-objects";

/** Any Stripe object as stored: every one has an id and names its type. */
export interface StripeObject {
  id: string;
  object: string;
}
/** A stored object read without its type (the hosted pages only show a few fields). */
export type Obj = Record<string, unknown> & StripeObject;
export type Params = Record<string, unknown>;

/** What the stand-in object offers the API: its clock (seconds), its objects and events. */
export interface StandInStore {
  /** Now, in seconds: the test clock's frozen time when serving a customer on one (stripe-clock.ts), else real time. */
  now(): number;
  /** The stored object with this id; the caller names its type (the id's prefix says which it is). */
  get<T extends StripeObject = Obj>(id: string): T | null;
  put<T extends StripeObject>(obj: T): T;
  /** Objects of one type, oldest first. */
  ofType<T extends StripeObject = Obj>(type: string): T[];
  remove(id: string): void;
  /** Records an event Stripe would send now (or at `created`), for the local entry to deliver. */
  recordEvent(type: Stripe.Event.Type, object: StripeObject, created?: number): void;
  /** Events recorded so far, newest first, optionally of some types only. */
  events(types: string[] | null): Stripe.Event[];
}

export const API_VERSION = "2026-10-28.endive";
/** In every stand-in answer and page; `npm run deploy:check` fails when the production bundle contains it. */
export const STAND_IN_MARKER = "clipcut-local-stand-in";
/** Hosted pages live on the site's own origin; the local entry fills it in when it answers. */
export const LOCAL_ORIGIN_PLACEHOLDER = "{{origin}}";

export const newId = (prefix: string) => `${prefix}_${crypto.randomUUID().replace(/-/g, "").slice(0, 24)}`;

export const idOf = (v: string | { id: string } | null | undefined) => (typeof v === "string" ? v : (v?.id ?? null));

/** A stored object of the given type, or null (an id of another type is not found, as on Stripe). */
export function objectOf<T extends StripeObject>(store: StandInStore, id: string | null, type: string): T | null {
  const found = id ? store.get<T>(id) : null;
  return found?.object === type ? found : null;
}

/** Stripe's form encoding (`a[b][0][c]=v`) back into objects and arrays. */
export function parseStripeForm(body: string): Params {
  const out: Params = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const path = rawKey.split(/[[\]]+/).filter(Boolean);
    let node: Record<string, unknown> = out;
    path.forEach((segment, i) => {
      if (i === path.length - 1) node[segment] = value;
      else node = (node[segment] ??= {}) as Record<string, unknown>;
    });
  }
  const arrays = (v: unknown): unknown => {
    if (!v || typeof v !== "object") return v;
    const entries = Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, arrays(x)] as const);
    return entries.length > 0 && entries.every(([k]) => /^\d+$/.test(k))
      ? entries.map(([, x]) => x)
      : Object.fromEntries(entries);
  };
  return arrays(out) as Params;
}

/** A price the deploy created (docs/payments.md), by its id (`price_<lookup key>`). */
export const priceById = (id: string) => priceObject(id.replace(/^price_/, ""));

export const text = (v: unknown) => (typeof v === "string" ? v : null);

/** A form's nested object (`a[b]=…`), or an empty one. */
export const paramsOf = (v: unknown): Params => (v && typeof v === "object" && !Array.isArray(v) ? (v as Params) : {});

/** A form's nested object of strings (metadata), or null when the request did not send one. */
export function stringRecord(value: unknown): Record<string, string> | null {
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
}

/** Stripe deletes a metadata key set to "". */
export const cleanMetadata = (m: Record<string, string>) =>
  Object.fromEntries(Object.entries(m).filter(([, v]) => v !== ""));

// ── Errors in Stripe's shape ───────────────────────────────────────────────

export function stripeError(status: number, message: string, extra: Record<string, unknown> = {}): Response {
  const type =
    status === 402 ? "card_error" : extra.type === "idempotency_error" ? "idempotency_error" : "invalid_request_error";
  return Response.json({ error: { type, message, ...extra } }, { status });
}

export const noSuch = (kind: string, id: string) =>
  stripeError(404, `No such ${kind}: '${id}'`, { code: "resource_missing", param: "id" });

// ── Lists ─────────────────────────────────────────────────────────────

/**
 * One page of a list, as Stripe pages it: `limit` (1–100, default 10), after `starting_after` or before
 * `ending_before` (ids of the list's items); `has_more` says whether more follow.
 */
export function pageOf<T extends { id: string }>(
  url: string,
  items: T[],
  search: URLSearchParams,
): Stripe.ApiList<T> | Response {
  const limit = Number(search.get("limit") ?? 10);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    return stripeError(400, "Invalid integer: limit must be between 1 and 100.", { param: "limit" });
  const after = search.get("starting_after");
  const before = search.get("ending_before");
  const at = (id: string) => items.findIndex((i) => i.id === id);
  if (after !== null && at(after) < 0) return noSuch("object", after);
  if (before !== null && at(before) < 0) return noSuch("object", before);
  if (before !== null) {
    const end = at(before);
    const start = Math.max(0, end - limit);
    return list(url, items.slice(start, end), start > 0);
  }
  const start = after !== null ? at(after) + 1 : 0;
  return list(url, items.slice(start, start + limit), start + limit < items.length);
}

/** Query values of a repeated key (`types[]=a&types[]=b`, `expand[0]=x`). */
export const queryValues = (search: URLSearchParams, key: string) =>
  [...search.entries()].filter(([k]) => k === key || k.startsWith(`${key}[`)).map(([, v]) => v);
