import { sql, type AnyColumn, type SQL } from "drizzle-orm";

/** `q` as a LIKE pattern that matches it anywhere, its own `%`, `_` and `\` taken literally. */
export const likeEscape = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** `column` contains `q`, ignoring case: the list screens' free-text search. */
export const contains = (column: SQL | AnyColumn, q: string) => sql`lower(${column}) like ${likeEscape(q)} escape '\\'`;
