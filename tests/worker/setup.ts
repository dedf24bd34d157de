import { applyD1Migrations, reset } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { vi } from "vitest";

// Each file first puts back what a fresh workerd runtime would give it, so that files may share one (vitest.config.ts
// runs them all in one); in a runtime of its own (WORKERD_ISOLATE=1) a file finds all of this empty already:
// - storage: `reset()` deletes every Durable Object (the ledgers, the admin feed, the stand-ins' books and outbox)
//   together with D1's and the Cache API's data, and drops their live instances (open sockets close);
await reset();
// - the isolate's memory: the app's module-level caches (extension id, Stripe price ids, pages kept in memory, IPs
//   blocked after a flood) start empty, because the app's modules are evaluated again for this file;
vi.resetModules();
// - a fully migrated, empty D1.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
// What it cannot put back: the Rate Limiting binding's counts (kept by miniflare per key for the current minute). The
// tests that count toward an IP's limit use addresses of their own (realtime-limits, realtime-upgrade-limits).
