import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { holdRequestSchema, HOLD_TTL_MS, type ClipRequest } from "../../../app/domain/api";
import { clipTerms } from "../../../app/domain/clip-quality";
import { clipCost, INSUFFICIENT_CREDITS_MESSAGE } from "../../../app/domain/credits";
import { BATCH_LIMIT_MESSAGE, checkPlanLimits, maxOpenHolds, planLimits, type PlanId } from "../../../app/domain/plans";

/** A small, faithful stand-in for the ClipCut server's API v1 credit endpoints. */
export interface FakeUser {
  token: string;
  plan: PlanId;
  balance: number;
}

export interface Call {
  method: string;
  path: string;
  idempotencyKey: string | null;
  status: number;
}

interface HoldRecord {
  id: string;
  userToken: string;
  amount: number;
  clip: ClipRequest;
  /** The source height the job sent with the hold (undefined: a plain clip request). */
  sourceHeight: number | null | undefined;
  state: "held" | "captured" | "released";
  expiresAt: string;
}

export interface FakeApi {
  baseUrl: string;
  calls: Call[];
  /** What a served page reported (POST /report bodies). */
  reports: string[];
  holds: Map<string, HoldRecord>;
  users: Map<string, FakeUser & { held: number }>;
  /**
   * The ledger's round trip, as over the internet: each hold is answered `ms` later, and `before` runs just before
   * the answer leaves (0: at once, as before).
   */
  slowHolds(ms: number, before?: () => void): void;
  close(): Promise<void>;
}

/**
 * `port`: a fixed port (the extension's build names its site origin); `pages`: static HTML answered without a token
 * on GET (a site page that messages the extension), and what such a page POSTs to /report is kept in `reports`.
 */
export async function startFakeApi(
  users: FakeUser[],
  o: { port?: number; pages?: Record<string, string> } = {},
): Promise<FakeApi> {
  const userMap = new Map(users.map((u) => [u.token, { ...u, held: 0 }]));
  const holds = new Map<string, HoldRecord>();
  const idem = new Map<string, { body: string; status: number; response: unknown }>();
  const calls: Call[] = [];
  const reports: string[] = [];
  let holdDelay = { ms: 0, before: (): void => undefined };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req as AsyncIterable<Buffer>) chunks.push(c);
    const raw = Buffer.concat(chunks).toString();
    const key = (req.headers["idempotency-key"] as string | undefined) ?? null;
    const path = (req.url ?? "").split("?")[0] ?? "";
    const page = o.pages?.[path];
    if (req.method === "GET" && page !== undefined)
      return void res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(page);
    if (req.method === "POST" && path === "/report" && o.pages) {
      reports.push(raw);
      return void res.writeHead(204).end();
    }
    const send = (status: number, body: unknown) => {
      calls.push({ method: req.method ?? "", path, idempotencyKey: key, status });
      res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
    };
    const fail = (status: number, code: string, message: string) => send(status, { error: { code, message } });
    const user = userMap.get((req.headers.authorization ?? "").replace(/^Bearer /, ""));
    if (!user) return fail(401, "unauthorized", "Invalid or expired token.");
    const credits = () => ({ balance: user.balance, held: user.held, available: user.balance - user.held });
    if (req.method === "GET" && path === "/api/v1/me") {
      return send(200, {
        user: { id: "u1", email: "u@example.com", fullName: "Test User", plan: user.plan, role: "user" },
        credits: credits(),
        limits: planLimits(user.plan),
      });
    }
    const replay = key ? idem.get(`${user.token}:${key}`) : undefined;
    if (replay) {
      if (replay.body !== raw)
        return fail(409, "idempotency_conflict", "Idempotency-Key reused with a different body.");
      return send(replay.status, replay.response);
    }
    const remember = (status: number, response: unknown) => {
      if (key) idem.set(`${user.token}:${key}`, { body: raw, status, response });
      send(status, response);
    };
    if (req.method === "POST" && path === "/api/v1/holds") {
      if (holdDelay.ms > 0) await new Promise((r) => setTimeout(r, holdDelay.ms));
      holdDelay.before();
      if (!key) return fail(400, "bad_request", "Idempotency-Key header is required.");
      const parsed = holdRequestSchema.safeParse(JSON.parse(raw || "null"));
      if (!parsed.success) return fail(422, "invalid_input", parsed.error.issues[0]?.message ?? "Invalid clip.");
      // The terms as the server decides them: the one domain rule on the user's plan.
      const { sourceHeight, ...asked } = parsed.data;
      const terms = clipTerms({
        format: asked.format,
        asked: asked.quality,
        sourceHeight: sourceHeight ?? null,
        limits: planLimits(user.plan),
      });
      const clip: ClipRequest = { ...asked, quality: terms.quality };
      const duration = clip.endSeconds - clip.startSeconds;
      const limit = checkPlanLimits(user.plan, {
        durationSeconds: duration,
        format: clip.format,
        quality: clip.quality,
      });
      if (!limit.ok) return fail(403, "plan_limit", limit.message);
      // The ledger's open-hold limit: a plan without batch processing holds one clip at a time.
      const open = [...holds.values()].filter((h) => h.userToken === user.token && h.state === "held").length;
      if (open >= maxOpenHolds(user.plan)) return fail(403, "plan_limit", BATCH_LIMIT_MESSAGE);
      const amount = clipCost(duration, clip.format, clip.quality);
      if (user.balance - user.held < amount) return fail(402, "insufficient_credits", INSUFFICIENT_CREDITS_MESSAGE);
      const hold: HoldRecord = {
        id: randomUUID(),
        userToken: user.token,
        amount,
        clip,
        sourceHeight,
        state: "held",
        expiresAt: new Date(Date.now() + HOLD_TTL_MS).toISOString(),
      };
      holds.set(hold.id, hold);
      user.held += amount;
      return remember(201, { hold: { id: hold.id, amount, expiresAt: hold.expiresAt }, credits: credits(), terms });
    }
    const m = /^\/api\/v1\/holds\/([^/]+)\/(capture|release)$/.exec(path);
    if (req.method === "POST" && m) {
      const hold = holds.get(decodeURIComponent(m[1] ?? ""));
      if (!hold || hold.userToken !== user.token) return fail(404, "not_found", "No such hold.");
      if (m[2] === "capture") {
        if (hold.state === "released") return fail(409, "idempotency_conflict", "The hold was released.");
        if (hold.state === "held") {
          hold.state = "captured";
          user.held -= hold.amount;
          user.balance -= hold.amount;
        }
        const clip = {
          id: hold.id,
          ...hold.clip,
          cost: hold.amount,
          status: "completed",
          createdAt: new Date().toISOString(),
          // The clip record's short-video options, as the API answers them (Original without captions by default).
          aspect: hold.clip.aspect ?? "original",
          cropPosition: hold.clip.cropPosition ?? null,
          captions: hold.clip.captions ?? null,
        };
        return remember(200, { clip, credits: credits() });
      }
      if (hold.state === "captured") return fail(409, "idempotency_conflict", "The hold was captured.");
      if (hold.state === "held") {
        hold.state = "released";
        user.held -= hold.amount;
      }
      return remember(200, { credits: credits() });
    }
    return fail(404, "not_found", "Not found.");
  });
  await new Promise<void>((r) => server.listen(o.port ?? 0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    calls,
    reports,
    holds,
    users: userMap,
    slowHolds(ms, before = () => undefined) {
      holdDelay = { ms, before };
    },
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
