import { applyD1Migrations, reset } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { vi } from "vitest";

// The test files share one workerd runtime (vitest.config.ts: isolate false), so each file first puts back what a
// fresh runtime would give it:
// - storage: `reset()` deletes every Durable Object (the ledgers, the admin feed, the stand-ins' books and outbox)
//   together with D1's and the Cache API's data, and drops their live instances (open sockets close);
await reset();
// - the isolate's memory: the app's module-level caches (extension id, Stripe price ids, pages kept in memory, IPs
//   blocked after a flood) start empty, because the app's modules are evaluated again for this file;
vi.resetModules();
// - a fully migrated, empty D1.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
