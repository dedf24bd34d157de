import { env, exports } from "cloudflare:workers";
import fc from "fast-check";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "~/db/client.server";
import { clipRequestSchema } from "~/domain/api";
import { issueApiToken } from "~/services/api-tokens.server";
import { insertUser, ORIGIN, signIn } from "./helpers";

/**
 * Property tests over what crosses the boundary: API v1 bodies and the sign-in, sign-up and reset forms. Whatever
 * arrives, the answer is a 4xx with an error the client can show (JSON for the API, the form's page otherwise),
 * never a 5xx, and no balance or ledger row moves. ~100 runs per property: the file takes 1–2 min on a 2-core CI run
 * beside the browsers, up to 4 min when the machine is overloaded (hence the generous per-test budget).
 */
const RUNS = { numRuns: 100 };
// Every form answer is a full server render with a PBKDF2 or D1 round trip behind it: fewer runs keep it quick.
const FORM_RUNS = { numRuns: 50 };
vi.setConfig({ testTimeout: 120_000 });
const db = getDb(env.DB);
let token = "";
let userId = "";
let ip = 0;

beforeAll(async () => {
  userId = await insertUser({ email: "fuzz@example.com", credits: 100, plan: "Pro" });
  token = await issueApiToken(db, userId, "fuzz-session");
});

async function unmoved() {
  const row = await env.DB.prepare(
    "SELECT credits, (SELECT count(*) FROM credit_ledger WHERE user_id = ?1) rows, (SELECT count(*) FROM credit_holds WHERE user_id = ?1) holds FROM users WHERE id = ?1",
  )
    .bind(userId)
    .first();
  expect(row).toEqual({ credits: 100, rows: 1, holds: 0 });
}

const hostileString = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary" }),
  fc.constantFrom(
    "javascript:alert(1)",
    "data:text/html,<svg onload=alert(1)>",
    "'; DROP TABLE users; --",
    "\u0000",
    "\r\nSet-Cookie: x=1",
    "<script>alert(1)</script>",
    "%E0%A4%A",
    "../../etc/passwd",
    "𝕏".repeat(300),
    "a".repeat(5000),
  ),
);
const anyValue = fc.oneof(
  hostileString,
  fc.double(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.object({ maxDepth: 2 }),
);
const validClip = {
  name: "Fuzz",
  videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
  startSeconds: 0,
  endSeconds: 10,
  format: "mp4",
  quality: "720p",
};
const fields = Object.keys(validClip) as (keyof typeof validClip)[];

/** A clip body that is wrong somewhere: some fields replaced, removed or added, or not an object at all. */
const invalidClipBody = fc
  .oneof(
    fc
      .record({
        replace: fc.dictionary(fc.constantFrom(...fields), anyValue, { minKeys: 1 }),
        drop: fc.subarray(fields),
        extra: fc.dictionary(fc.string(), anyValue, { maxKeys: 2 }),
      })
      .map(({ replace, drop, extra }) => {
        const body: Record<string, unknown> = { ...extra, ...validClip, ...replace };
        for (const key of drop) delete body[key];
        return body as unknown;
      }),
    anyValue,
  )
  .filter((body) => !clipRequestSchema.safeParse(body).success);

const rawBody = fc.oneof(
  invalidClipBody.map((b) => JSON.stringify(b) ?? "null"),
  hostileString,
  fc.constantFrom("", "{", "[1,2", '{"name":', "null", "\uFEFF{}"),
);

function apiPost(path: string, body: string, key: string | null) {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
  if (key !== null) headers["Idempotency-Key"] = key;
  return exports.default.fetch(new Request(`${ORIGIN}${path}`, { method: "POST", headers, body }));
}

async function expectJsonError(res: Response) {
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  const body = (await res.json()) as { error?: { code?: unknown; message?: unknown } };
  expect(typeof body.error?.code).toBe("string");
  expect(typeof body.error?.message).toBe("string");
}

describe("fuzz: API v1 bodies", () => {
  it("any invalid clip or hold body gets a JSON 4xx and moves no credit", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("/api/v1/clips", "/api/v1/holds"),
        rawBody,
        fc.oneof(
          fc.uuid(),
          fc.constant(null),
          fc.string(),
          fc.constantFrom("", " ", "a".repeat(200), "key with space"),
        ),
        async (path, body, key) => {
          await expectJsonError(await apiPost(path, body, key));
        },
      ),
      RUNS,
    );
    await unmoved();
  });

  it("any hold id or operation on capture/release gets a JSON 4xx and moves no credit", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.uuid(), fc.stringMatching(/^[\w%.-]{1,40}$/)),
        fc.constantFrom("capture", "release", "CAPTURE", "x"),
        rawBody,
        async (id, op, body) => {
          await expectJsonError(await apiPost(`/api/v1/holds/${encodeURIComponent(id)}/${op}`, body, null));
        },
      ),
      RUNS,
    );
    await unmoved();
  });
});

const formContentType = fc.constantFrom(
  "application/x-www-form-urlencoded",
  "application/x-www-form-urlencoded; charset=utf-8",
  "multipart/form-data",
  "application/json",
  "text/plain",
);

function formPost(path: string, body: string, contentType: string) {
  ip += 1;
  return exports.default.fetch(
    new Request(`${ORIGIN}${path}`, {
      method: "POST",
      headers: {
        "Content-Type": contentType,
        Origin: ORIGIN,
        Host: new URL(ORIGIN).host,
        "CF-Connecting-IP": `10.${(ip >> 16) & 255}.${(ip >> 8) & 255}.${ip & 255}`,
      },
      body,
      redirect: "manual",
    }),
  );
}

/** A form answer: a 4xx page or data response that carries a message (never a stack trace). */
async function expectFormError(res: Response) {
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  const text = await res.text();
  expect(text.length).toBeGreaterThan(0);
  expect(text).not.toMatch(/\bat \S+ \(|node_modules|\.server\.ts/);
}

const encode = (record: Record<string, string>) => new URLSearchParams(record).toString();

describe("fuzz: sign-in, sign-up and reset forms", () => {
  it("sign-in: any fields give a 4xx and no session", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({ email: hostileString, password: hostileString, redirectTo: hostileString }, { requiredKeys: [] }),
        fc.dictionary(fc.string({ maxLength: 10 }), hostileString, { maxKeys: 2 }),
        async (fields, extra) => {
          const res = await formPost("/signin", encode({ ...extra, ...fields }), "application/x-www-form-urlencoded");
          expect(
            res.headers.getSetCookie().some((c) => c.startsWith("clipcut_session=") && !c.includes("Max-Age=0")),
          ).toBe(false);
          await expectFormError(res);
        },
      ),
      FORM_RUNS,
    );
  });

  it("sign-up: any invalid fields give a 4xx with a form error and create nobody", async () => {
    const before = await env.DB.prepare("SELECT count(*) n FROM users").first<{ n: number }>();
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          { fullName: hostileString, email: hostileString, password: hostileString, confirmPassword: hostileString },
          { requiredKeys: [] },
        ),
        async (fields) => {
          fc.pre(fields.password === undefined || fields.password !== fields.confirmPassword);
          await expectFormError(await formPost("/signup", encode(fields), "application/x-www-form-urlencoded"));
        },
      ),
      FORM_RUNS,
    );
    expect(await env.DB.prepare("SELECT count(*) n FROM users").first<{ n: number }>()).toEqual(before);
  });

  it("reset: any token and fields give a 4xx and change no password", async () => {
    const before = await env.DB.prepare("SELECT group_concat(password_hash) h FROM users").first();
    await fc.assert(
      fc.asyncProperty(
        fc.stringMatching(/^[\w%.~-]{0,80}$/),
        fc.record({ password: hostileString, confirmPassword: hostileString }, { requiredKeys: [] }),
        async (tokenPath, fields) => {
          const res = await formPost(
            `/reset-password/${tokenPath || "x"}`,
            encode(fields),
            "application/x-www-form-urlencoded",
          );
          await expectFormError(res);
        },
      ),
      FORM_RUNS,
    );
    expect(await env.DB.prepare("SELECT group_concat(password_hash) h FROM users").first()).toEqual(before);
  });

  it("any form body in any content type gives a 4xx, never a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("/signin", "/signup", "/reset-password/abc", "/forgot-password", "/verify-email/abc"),
        fc.oneof(hostileString, fc.constantFrom("--x\r\nContent-Disposition: form-data\r\n\r\n", "%", "a=%ZZ&b")),
        formContentType,
        async (path, body, contentType) => {
          const res = await formPost(path, body, contentType);
          expect(res.status, `${path} ${contentType}`).toBeLessThan(500);
          await res.arrayBuffer();
        },
      ),
      FORM_RUNS,
    );
    await unmoved();
  });
});

describe("signed-in and public form actions", () => {
  it("a body that is not a form gets a 400 on every form action, never a 5xx, and moves no credit", async () => {
    await insertUser({ email: "fuzz-admin@example.com", password: "Fuzz-admin-pass-1", role: "admin", plan: "Pro" });
    const cookie = await signIn("fuzz-admin@example.com", "Fuzz-admin-pass-1", "192.0.2.77");
    for (const path of [
      "/dashboard",
      "/billing/plan",
      "/billing",
      "/billing/packs",
      "/download",
      "/admin/clips",
      "/admin/create-clip",
      "/admin/settings",
      "/admin/users",
    ]) {
      const res = await exports.default.fetch(
        new Request(`${ORIGIN}${path}`, {
          method: "POST",
          body: "%",
          headers: {
            "Content-Type": "multipart/form-data; boundary=x",
            Origin: ORIGIN,
            Host: new URL(ORIGIN).host,
            Cookie: cookie,
          },
          redirect: "manual",
        }),
      );
      expect(res.status, path).toBe(400);
      await res.arrayBuffer();
    }
    await unmoved();
  });
});

describe("fuzz: the flood limits", () => {
  const printable = fc.stringMatching(/^[\x21-\x7e]{0,80}$/);
  const anyIp = fc.oneof(
    fc.ipV4(),
    fc.ipV6(),
    printable.filter((s) => s.length > 0),
  );

  it("any bearer token from any address gets a JSON 401 or 429, never a 5xx, and moves no credit", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(printable, fc.constant(token.slice(0, -1)), fc.constant(`${token}x`)),
        anyIp,
        fc.constantFrom("GET /api/v1/me", "POST /api/v1/clips", "POST /api/v1/holds"),
        async (bearer, address, route) => {
          const [method, path] = route.split(" ") as [string, string];
          const res = await exports.default.fetch(
            new Request(`${ORIGIN}${path}`, {
              method,
              headers: {
                Authorization: `Bearer ${bearer}`,
                "CF-Connecting-IP": address,
                "Content-Type": "application/json",
                "Idempotency-Key": "fuzz-limits-1",
              },
              body: method === "POST" ? JSON.stringify(validClip) : undefined,
            }),
          );
          expect([401, 429]).toContain(res.status);
          await expectJsonError(res);
          if (res.status === 429) expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
        },
      ),
      RUNS,
    );
    await unmoved();
  });

  it("any burst of frames on the extension socket gets answers within the budget or a 1008 close, never money", async () => {
    const frame = fc.oneof(
      fc.constant(JSON.stringify({ v: 1, type: "ping" })),
      fc.constant(JSON.stringify({ v: 1, type: "hello", lastSeq: null })),
      hostileString,
      fc.json(),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(frame, { minLength: 1, maxLength: 40 }), async (frames) => {
        const res = await exports.default.fetch(
          new Request(`${ORIGIN}/api/v1/realtime`, {
            headers: { Upgrade: "websocket", Authorization: `Bearer ${token}` },
          }),
        );
        // Sockets of earlier runs may still be closing: the per-user cap answers 429, never a 5xx.
        expect([101, 429]).toContain(res.status);
        const ws = res.webSocket;
        if (!ws) return;
        const closed = new Promise<number>((resolve) => ws.addEventListener("close", (e) => resolve(e.code)));
        let answers = 0;
        ws.addEventListener("message", () => answers++);
        ws.accept();
        for (const f of frames) ws.send(f);
        const code = await Promise.race([closed, new Promise<"open">((r) => setTimeout(() => r("open"), 150))]);
        expect(code === "open" || code === 1008).toBe(true);
        expect(answers).toBeLessThanOrEqual(9); // three of each kind at most
        if (code === "open") ws.close(1000, "done");
        await Promise.race([closed, new Promise((r) => setTimeout(r, 100))]);
      }),
      { numRuns: 25 },
    );
    await unmoved();
  });
});
