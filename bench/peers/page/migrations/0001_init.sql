-- The page peer's tables: a session (by the SHA-256 of its cookie's token, as ClipCut keeps them), a user, their clips.
CREATE TABLE users (id TEXT PRIMARY KEY, email TEXT NOT NULL, full_name TEXT NOT NULL, plan TEXT NOT NULL, credits INTEGER NOT NULL);
CREATE TABLE sessions (id TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id), expires_at INTEGER NOT NULL);
CREATE TABLE clips (id TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id), name TEXT NOT NULL, seconds INTEGER NOT NULL, created_at INTEGER NOT NULL);
CREATE INDEX clips_by_user ON clips (user_id, created_at);
