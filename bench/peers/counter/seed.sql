-- Users u0 … u40, each with a million credits (bench/ledger.ts charges as u0 for one user, u1 … u40 for forty).
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 40)
INSERT INTO users SELECT 'u' || i, 1000000 FROM n;
