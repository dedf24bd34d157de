-- One user signed in (cookie peer_session=peer-bench-token; the id below is its SHA-256) with twelve clips.
INSERT INTO users VALUES ('u1', 'peer@example.com', 'Peer Bench', 'Pro', 1000);
INSERT INTO sessions VALUES ('5e4765d0d11e6b413320fa0ed96c8455f0f54edb658418be11cd16d06e2e24f9', 'u1', 4102444800000);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 12)
INSERT INTO clips SELECT 'c' || i, 'u1', 'Clip number ' || i, 15 + i, 1700000000000 + i * 60000 FROM n;
