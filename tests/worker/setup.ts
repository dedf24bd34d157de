import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";

// Every test file starts from an isolated, fully migrated D1.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
