import { drizzle, type DrizzleD1Database } from "drizzle-orm/d1";
import * as schema from "./schema";

export type Db = DrizzleD1Database<typeof schema> & { $client: D1Database };

/** One drizzle instance per D1 binding: building one walks the whole schema, which showed in every request's profile. */
const instances = new WeakMap<D1Database, Db>();

export function getDb(d1: D1Database): Db {
  let db = instances.get(d1);
  if (!db) {
    db = drizzle(d1, { schema });
    instances.set(d1, db);
  }
  return db;
}
