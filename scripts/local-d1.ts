/**
 * The local D1 that `wrangler dev` serves (`wrangler.local.toml`, persisted where wrangler keeps it), opened in this
 * process through wrangler's own platform proxy: one workerd start instead of one `wrangler d1 …` command (a few
 * seconds of CLI and runtime start-up each) per step. Migrations are recorded in `d1_migrations` exactly as
 * `wrangler d1 migrations apply` records them, so either may run next.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { getPlatformProxy } from "wrangler";

export async function openLocalD1(persistTo?: string): Promise<{ db: D1Database; close: () => Promise<void> }> {
  const proxy = await getPlatformProxy<{ DB: D1Database }>({
    configPath: "wrangler.local.toml",
    // wrangler dev --persist-to DIR keeps its state in DIR/v3 (without the flag: .wrangler/state/v3).
    persist: persistTo ? { path: join(persistTo, "v3") } : true,
  });
  return { db: proxy.env.DB, close: () => proxy.dispose() };
}

/** A drizzle migration file's statements (drizzle separates them with a breakpoint comment). */
function statementsOf(sql: string): string[] {
  return sql
    .split("--> statement-breakpoint")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** Applies the migrations in `migrations/` that `d1_migrations` does not list, each atomically; returns their names. */
export async function applyMigrations(db: D1Database, dir = "migrations"): Promise<string[]> {
  await db
    .prepare(
      `CREATE TABLE IF NOT EXISTS d1_migrations(
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT UNIQUE,
        applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
      )`,
    )
    .run();
  const done = new Set(
    (await db.prepare("SELECT name FROM d1_migrations").all<{ name: string }>()).results.map((r) => r.name),
  );
  const pending = readdirSync(dir)
    .filter((f) => f.endsWith(".sql") && !done.has(f))
    .sort();
  for (const name of pending) {
    const statements = statementsOf(readFileSync(join(dir, name), "utf8")).map((s) => db.prepare(s));
    await db.batch([...statements, db.prepare("INSERT INTO d1_migrations (name) VALUES (?)").bind(name)]);
  }
  return pending;
}
