-- The charge peer's tables: a balance per user and one row per charge (its idempotency key is the row's id).
CREATE TABLE users (id TEXT PRIMARY KEY, credits INTEGER NOT NULL);
CREATE TABLE charges (id TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id), name TEXT NOT NULL, cost INTEGER NOT NULL, balance_after INTEGER NOT NULL, created_at INTEGER NOT NULL);
