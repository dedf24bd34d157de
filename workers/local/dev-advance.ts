/**
 * Local only: `POST /dev/stripe/advance` with JSON `{"email": "...", "seconds": N}` — moves the test clock of that
 * user's Stripe customer N seconds on and delivers what Stripe would, moment by moment (each moment's events reach
 * /webhooks/stripe before the next one runs), answering the events it caused. For local use and tests; like every
 * /dev/ address it does not exist without the stand-in (any deploy).
 */
import { z } from "zod";
import { customerIdOf } from "../../app/db/billing.server";
import { getDb } from "../../app/db/client.server";
import type { AppEnv } from "../../app/load-context";
import { findUserByEmail } from "../../app/services/accounts.server";
import { localLedger } from "./ledger-clock";
import type { Stub } from "./pages-kit";

export type Deliver = (env: AppEnv, origin: string, ctx: ExecutionContext) => Promise<number>;

/** Ten years: far beyond any period the plans have, and a bound on one request's work. */
const MAX_SECONDS = 10 * 366 * 86_400;
/** Each step runs one moment; a decade of monthly renewals with retries stays well under this. */
const MAX_STEPS = 2000;

const input = z
  .object({
    email: z.string().trim().email().max(254),
    seconds: z.number().int().positive().max(MAX_SECONDS),
  })
  .strict();

const answer = (body: unknown, status = 200) =>
  Response.json(body, { status, headers: { "Cache-Control": "no-store" } });

export async function devAdvanceRoute(
  request: Request,
  env: AppEnv,
  ctx: ExecutionContext,
  stub: Stub,
  deliver: Deliver,
): Promise<Response> {
  if (request.method !== "POST") return answer({ error: "Use POST." }, 405);
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return answer({ error: 'Send JSON: {"email": "...", "seconds": N}.' }, 400);
  }
  const parsed = input.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return answer({ error: `${issue?.path.join(".") || "body"}: ${issue?.message}` }, 400);
  }
  const db = getDb(env.DB);
  const user = await findUserByEmail(db, parsed.data.email);
  const customer = user ? await customerIdOf(db, user.id) : null;
  const clock = customer ? await stub.clockOf(customer) : null;
  if (!customer || !clock) return answer({ error: "No Stripe customer with a test clock has that e-mail." }, 404);
  const origin = new URL(request.url).origin;
  const since = await stub.lastEventSeq();
  const target = clock.frozenTime + parsed.data.seconds;
  for (let step = 0; step < MAX_STEPS; step++) {
    const done = await stub.advanceClockStep(clock.id, target, step === 0);
    await deliver(env, origin, ctx);
    if (done) break;
  }
  // The ledger grants a paid line's months by its own clock: the local object's clock port tells it the customer's
  // clock time, so the months the advance reached are granted now (a real test-mode deploy waits for real time).
  const renewed = await localLedger(env, user!.id).advanceClock(user!.id, target * 1000);
  if (!renewed.ok) return answer({ error: renewed.message }, renewed.status);
  const events = await stub.eventsAfter(since);
  return answer({
    customer,
    testClock: clock.id,
    frozenTime: target,
    events: events.map(({ id, type, object, delivered }) => ({ id, type, object, delivered })),
  });
}
