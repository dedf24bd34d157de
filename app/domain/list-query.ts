import { z } from "zod";

/**
 * A list screen's state as it lives in the URL: one zod shape whose every field falls back with `.catch`, so a shared
 * or hand-edited link never fails; it only loses what it cannot read. The same definition reads a request's
 * parameters and writes the links that change them (filters, sort, page), leaving defaults out of the URL.
 */
export interface ListQuery<T extends Record<string, unknown>> {
  /** The query with every field at its default (what an empty URL means). */
  readonly defaults: T;
  parse(params: URLSearchParams): T;
  /** `query` with `changes` applied (undefined removes a key; keys outside the shape pass through, e.g. `edit`), as a
   *  query string without the leading "?"; defaults and empty values are left out. */
  search(query: T, changes?: Record<string, string | number | undefined>): string;
  /** `base` with that query string, or `base` alone when it is empty. */
  href(base: string, query: T, changes?: Record<string, string | number | undefined>): string;
}

export function listQuery<S extends z.ZodRawShape>(shape: S): ListQuery<z.infer<z.ZodObject<S>>> {
  type T = z.infer<z.ZodObject<S>>;
  const schema = z.object(shape);
  // Every field catches, so an empty object parses to the defaults.
  const defaults = schema.parse({}) as T;
  const search = (query: T, changes: Record<string, string | number | undefined> = {}) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries({ ...query, ...changes })) {
      if (value === undefined || value === null || value === "") continue;
      if (Object.hasOwn(defaults, key) && (defaults as Record<string, unknown>)[key] === value) continue;
      params.set(key, String(value));
    }
    return params.toString();
  };
  return {
    defaults,
    // Empty fields of a submitted GET form mean "no filter", not an invalid value.
    parse: (params) => schema.parse(Object.fromEntries([...params].filter(([, v]) => v !== ""))) as T,
    search,
    href: (base, query, changes) => {
      const s = search(query, changes);
      return s ? `${base}?${s}` : base;
    },
  };
}

/** The fields most lists share. */
export const listFields = {
  /** Free text search: trimmed, at most 200 characters; only spaces is no search. */
  q: z
    .string()
    .trim()
    .max(200)
    .transform((v) => v || undefined)
    .optional()
    .catch(undefined),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
  dir: z.enum(["asc", "desc"]).catch("asc"),
};
