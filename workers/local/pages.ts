/**
 * Local only: the pages Stripe hosts (Checkout, the Customer Portal, an invoice's payment page with its 3-D Secure
 * step) and the e-mail outbox, all under /dev/. Plain HTML forms, no script. Only workers/local.ts serves them, and
 * only when the STAND_IN binding exists.
 */
import { z } from "zod";
import { customerIdOf } from "../../app/db/billing.server";
import { getDb } from "../../app/db/client.server";
import { creditPack, formatCents, planOfLookupKey, PLANS } from "../../app/domain/plans";
import type { AppEnv } from "../../app/load-context";
import { requireUser } from "../../app/services/auth.server";
import { isForeignOriginWrite } from "../origin-check";
import { formActionSources, withSecurityHeaders } from "../security-headers";
import type { LocalStandIn } from "./stand-in-object";
import { STAND_IN_MARKER, type Obj } from "./stripe-api";

type Stub = DurableObjectStub<LocalStandIn>;
type Deliver = (env: AppEnv, origin: string, ctx: ExecutionContext) => Promise<number>;

export const isDevPath = (pathname: string) => pathname === "/dev" || pathname.startsWith("/dev/");

const escape = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function page(title: string, body: string, status = 200): Response {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="${STAND_IN_MARKER}"><title>${escape(title)} (local test mode) | ClipCut</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;background:#f8fafc;color:#0f172a}
main{max-width:28rem;margin:0 auto;padding:3rem 1rem}
.tag{font-size:.75rem;font-weight:600;text-transform:uppercase;letter-spacing:.05em;color:#b45309}
.card{background:#fff;border:1px solid #e2e8f0;border-radius:.75rem;padding:1rem;margin-top:1.5rem}
label{display:block;font-size:.875rem;font-weight:500}
input{width:100%;box-sizing:border-box;margin-top:.25rem;padding:.5rem;border:1px solid #94a3b8;border-radius:.5rem;font-size:1rem}
button{width:100%;margin-top:1rem;padding:.6rem;border:0;border-radius:.5rem;background:#4f46e5;color:#fff;font-size:1rem;cursor:pointer}
button.secondary{background:#e2e8f0;color:#0f172a}
button:focus-visible,input:focus-visible,a:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.help{font-size:.75rem;color:#475569}
.alert{margin-top:1rem;padding:.75rem;border-radius:.5rem;background:#fef2f2;color:#991b1b}
a{color:#334155}
</style></head><body><main>${body}</main></body></html>`;
  return new Response(html, {
    status,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
  });
}

const alert = (message: string | null) =>
  message ? `<p id="form-error" class="alert" role="alert">${escape(message)}</p>` : "";

const cardField = (error: boolean) => `<div>
  <label for="cardNumber">Card number</label>
  <input id="cardNumber" name="cardNumber" inputmode="numeric" autocomplete="cc-number" placeholder="4242 4242 4242 4242"
    required aria-describedby="${error ? "form-error card-help" : "card-help"}"${error ? ' aria-invalid="true"' : ""}>
  <p id="card-help" class="help">Test cards: 4242 4242 4242 4242 pays; 4000 0000 0000 0002 is declined;
  4000 0000 0000 0341 is saved but declined when charged later; 4000 0027 6000 3184 asks for 3-D Secure.</p>
</div>`;

const cardForm = z.object({ cardNumber: z.string().trim().min(1).max(40) });
const portalForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("card"), cardNumber: z.string().trim().min(1).max(40) }),
  z.object({ intent: z.literal("fail-renewal") }),
]);
const authForm = z.object({ outcome: z.enum(["complete", "fail"]) });

async function formOf(request: Request): Promise<Record<string, string>> {
  try {
    return Object.fromEntries([...(await request.formData())].map(([k, v]) => [k, String(v)]));
  } catch {
    return {};
  }
}

const redirect = (to: string) => new Response(null, { status: 302, headers: { Location: to } });

/** Serves /dev/…; a page of someone else's customer is a 404, like any id Stripe does not know. */
export async function routeDev(
  request: Request,
  env: AppEnv,
  ctx: ExecutionContext,
  stub: Stub,
  deliver: Deliver,
): Promise<Response> {
  const url = new URL(request.url);
  const nonce = crypto.randomUUID();
  const secure = (r: Response) => withSecurityHeaders(r, nonce, formActionSources(env.GOOGLE_AUTH_BASE_URL));
  if (isForeignOriginWrite(request))
    return secure(new Response("This request came from another site and was refused.", { status: 403 }));
  if (url.pathname === "/dev/outbox" && request.method === "GET")
    return Response.json({ messages: await stub.outbox() }, { headers: { "Cache-Control": "no-store" } });
  const match = /^\/dev\/stripe\/(checkout|portal|invoice)\/([A-Za-z0-9_]+)$/.exec(url.pathname);
  if (!match) return secure(new Response("Not Found", { status: 404 }));
  const [, kind, id] = match as unknown as [string, "checkout" | "portal" | "invoice", string];
  try {
    const user = await requireUser(request, { cloudflare: { env, ctx }, nonce });
    const customer = await customerIdOf(getDb(env.DB), user.id);
    const post = request.method === "POST";
    const form = post ? await formOf(request) : {};
    const answer =
      kind === "checkout"
        ? await checkoutPage(stub, id, customer, post ? form : null)
        : kind === "portal"
          ? await portalPage(stub, id, customer, post ? form : null)
          : await invoicePage(stub, id, customer, post ? form : null);
    if (post && answer.status === 302) await deliver(env, url.origin, ctx);
    return secure(answer);
  } catch (thrown) {
    if (thrown instanceof Response) return secure(thrown);
    throw thrown;
  }
}

const parse = (text: string | null) => (text ? (JSON.parse(text) as Obj) : null);

const notFound = () => new Response("Not Found", { status: 404 });

async function checkoutPage(stub: Stub, id: string, customer: string | null, form: Record<string, string> | null) {
  const session = parse(await stub.checkoutSession(id));
  if (!session || !customer || session.customer !== customer) return notFound();
  let error: string | null = null;
  if (form && session.status === "open") {
    const parsed = cardForm.safeParse(form);
    const outcome = parsed.success
      ? await stub.completeCheckout(id, parsed.data.cardNumber)
      : { ok: false as const, message: "Enter a card number." };
    if (outcome.ok) return redirect(String(session.success_url));
    error = outcome.message;
  }
  const price = parse(await stub.checkoutPrice(id));
  const lookupKey = String(price?.lookup_key ?? "");
  const plan = planOfLookupKey(lookupKey);
  const title = plan
    ? `ClipCut ${PLANS[plan.plan].name} plan, billed ${plan.billing}`
    : `ClipCut credit pack: ${creditPack(lookupKey)?.name ?? lookupKey}`;
  const subscription = session.mode === "subscription";
  const body =
    session.status !== "open"
      ? `<p class="alert" role="alert">This checkout is no longer open.</p>`
      : `<form method="post" class="card">${cardField(Boolean(error))}${alert(error)}
  <button type="submit">${subscription ? "Pay and subscribe" : "Pay"}</button></form>
  <p><a href="${escape(String(session.cancel_url))}">Cancel and return to ClipCut</a></p>`;
  return page(
    "Checkout",
    `<p class="tag">Local mode · Stripe test checkout</p><h1>${escape(title)}</h1>
<p data-testid="checkout-amount" style="font-size:1.875rem;font-weight:700">${formatCents(Number(session.amount_total))}</p>${body}`,
    error ? 402 : 200,
  );
}

async function portalPage(stub: Stub, id: string, customer: string | null, form: Record<string, string> | null) {
  const portal = parse(await stub.portalSession(id));
  if (!portal || !customer || portal.customer !== customer) return notFound();
  const returnUrl = String(portal.return_url);
  let error: string | null = null;
  if (form) {
    const parsed = portalForm.safeParse(form);
    if (!parsed.success) error = "Unknown action.";
    else if (parsed.data.intent === "card") {
      const outcome = await stub.updateCard(customer, parsed.data.cardNumber);
      if (outcome.ok) return redirect(returnUrl);
      error = outcome.message;
    } else {
      const subscription = await stub.runningSubscriptionOf(customer);
      if (subscription && (await stub.failRenewal(subscription))) return redirect(returnUrl);
      error = "There is no subscription to renew.";
    }
  }
  const subscribed = Boolean(await stub.runningSubscriptionOf(customer));
  return page(
    "Billing portal",
    `<p class="tag">Local mode · Stripe test portal</p><h1>Manage billing</h1>${alert(error)}
<form method="post" class="card"><input type="hidden" name="intent" value="card">${cardField(Boolean(error))}
<button type="submit">Save card</button></form>
${
  subscribed
    ? `<form method="post" class="card"><input type="hidden" name="intent" value="fail-renewal">
<p class="help">Test only: the next renewal payment fails.</p><button type="submit" class="secondary">Simulate a failed renewal</button></form>`
    : ""
}
<p><a href="${escape(returnUrl)}">Return to ClipCut</a></p>`,
    error ? 400 : 200,
  );
}

/** An open invoice's payment page, with the 3-D Secure step Stripe's test cards show. */
async function invoicePage(stub: Stub, id: string, customer: string | null, form: Record<string, string> | null) {
  const invoice = parse(await stub.invoice(id));
  if (!invoice || !customer || invoice.customer !== customer) return notFound();
  let error: string | null = null;
  if (form && invoice.status === "open") {
    const parsed = authForm.safeParse(form);
    if (parsed.success && parsed.data.outcome === "complete") {
      const outcome = await stub.payInvoice(id);
      if (outcome.ok) return redirect("/billing");
      error = outcome.message;
    } else error = "Authentication failed. The invoice is still open; nothing was charged.";
  }
  const body =
    invoice.status !== "open"
      ? `<p class="alert" role="status">This invoice is ${escape(String(invoice.status))}.</p>`
      : `<form method="post" class="card"><p>Your bank asks you to confirm this payment (3-D Secure test).</p>${alert(error)}
<button type="submit" name="outcome" value="complete">Complete authentication</button>
<button type="submit" name="outcome" value="fail" class="secondary">Fail authentication</button></form>`;
  return page(
    "Invoice",
    `<p class="tag">Local mode · Stripe test invoice</p><h1>Invoice ${escape(String(invoice.number))}</h1>
<p data-testid="invoice-amount" style="font-size:1.875rem;font-weight:700">${formatCents(Number(invoice.amount_due))}</p>${body}
<p><a href="/billing">Return to ClipCut</a></p>`,
    error ? 402 : 200,
  );
}
