/**
 * Local only: the pages Stripe hosts, under /dev/ — Checkout (here), the Customer Portal and an invoice's page with
 * its PDF (pages-billing.ts) — the e-mail outbox, and `POST /dev/stripe/advance` (dev-advance.ts). Plain HTML forms,
 * no script. Only workers/local.ts serves them, and only when the STAND_IN binding exists.
 */
import type Stripe from "stripe";
import { z } from "zod";
import { customerIdOf } from "../../app/db/billing.server";
import { getDb } from "../../app/db/client.server";
import { creditPack, formatCents, planOfLookupKey, PLANS } from "../../app/domain/plans";
import type { AppEnv } from "../../app/load-context";
import { requireUser } from "../../app/services/auth.server";
import { isForeignOriginWrite } from "../origin-check";
import { formActionSources, withSecurityHeaders } from "../security-headers";
import { devAdvanceRoute, type Deliver } from "./dev-advance";
import { invoicePage, invoicePdf, portalPage } from "./pages-billing";
import { alert, cardField, escape, formOf, notFound, page, parse, redirect, type Form, type Stub } from "./pages-kit";
import type { CheckoutEntry } from "./stripe-checkout";

export const isDevPath = (pathname: string) => pathname === "/dev" || pathname.startsWith("/dev/");

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
  if (url.pathname === "/dev/stripe/advance") return secure(await devAdvanceRoute(request, env, ctx, stub, deliver));
  const match = /^\/dev\/stripe\/(checkout|portal|invoice)\/([A-Za-z0-9_]+)(\/pdf)?$/.exec(url.pathname);
  if (!match || (match[3] && match[1] !== "invoice")) return secure(notFound());
  const [, kind, id, pdf] = match as unknown as [string, "checkout" | "portal" | "invoice", string, string?];
  try {
    const user = await requireUser(request, { cloudflare: { env, ctx }, nonce });
    const customer = await customerIdOf(getDb(env.DB), user.id);
    const post = request.method === "POST";
    if (pdf) return secure(post ? notFound() : await invoicePdf(stub, id, customer));
    const form = post ? await formOf(request) : null;
    const answer =
      kind === "checkout"
        ? await checkoutPage(stub, id, customer, form)
        : kind === "portal"
          ? await portalPage(stub, id, customer, form)
          : await invoicePage(stub, id, customer, form);
    if (post && answer.status === 302) await deliver(env, url.origin, ctx);
    return secure(answer);
  } catch (thrown) {
    if (thrown instanceof Response) return secure(thrown);
    throw thrown;
  }
}

const COUNTRY_CODES = ["US", "GB", "DE", "FR", "AT", "CA", "AU"] as const;
const COUNTRY_NAMES: Record<(typeof COUNTRY_CODES)[number], string> = {
  US: "United States",
  GB: "United Kingdom",
  DE: "Germany",
  FR: "France",
  AT: "Austria",
  CA: "Canada",
  AU: "Australia",
};

const addressSchema = z.object({
  country: z.enum(COUNTRY_CODES),
  postalCode: z.string().trim().min(1).max(20),
});
const checkoutForm = z.discriminatedUnion("method", [
  z.object({ method: z.literal("card"), cardNumber: z.string().trim().min(1).max(40) }),
  z.object({
    method: z.literal("us_bank_account"),
    routingNumber: z.string().trim().min(1).max(20),
    accountNumber: z.string().trim().min(1).max(30),
  }),
]);

/** The billing address Checkout asks for when the session requires one or computes tax (prefilled in test mode). */
const addressFields = (prefix: string) => `<fieldset style="border:0;padding:0;margin:0">
<legend class="help" style="margin-top:.75rem">Billing address (prefilled in test mode)</legend>
<label for="${prefix}country">Country</label>
<select id="${prefix}country" name="country" autocomplete="country">${COUNTRY_CODES.map(
  (code) => `<option value="${code}"${code === "US" ? " selected" : ""}>${COUNTRY_NAMES[code]}</option>`,
).join("")}</select>
<label for="${prefix}postalCode">Postal code</label>
<input id="${prefix}postalCode" name="postalCode" autocomplete="postal-code" value="10001" required>
</fieldset>`;

async function checkoutPage(stub: Stub, id: string, customer: string | null, form: Form) {
  const session = parse<Stripe.Checkout.Session>(await stub.checkoutSession(id));
  if (!session || !customer || session.customer !== customer) return notFound();
  const needsAddress = await stub.checkoutNeedsAddress(id);
  let error: string | null = null;
  let debitError = false;
  if (form && session.status === "open") {
    const parsed = checkoutForm.safeParse({ method: "card", ...form });
    // The fields are prefilled: a form sent without them (a test's, a script's) takes those values.
    const address = addressSchema.safeParse(
      form.country === undefined && form.postalCode === undefined ? { country: "US", postalCode: "10001" } : form,
    );
    let entry: CheckoutEntry | null = null;
    debitError = form.method === "us_bank_account";
    if (!parsed.success) error = debitError ? "Enter the routing and account numbers." : "Enter a card number.";
    else if (needsAddress && !address.success) error = "Enter your billing address.";
    else
      entry = {
        ...(parsed.data.method === "card"
          ? { cardNumber: parsed.data.cardNumber }
          : { bankAccount: { routingNumber: parsed.data.routingNumber, accountNumber: parsed.data.accountNumber } }),
        address: address.success ? address.data : null,
      };
    if (entry) {
      const outcome = await stub.completeCheckout(id, entry);
      if (outcome.ok) return redirect(String(session.success_url));
      error = outcome.message;
    }
  }
  const price = parse(await stub.checkoutPrice(id));
  const lookupKey = String(price?.lookup_key ?? "");
  const plan = planOfLookupKey(lookupKey);
  const title = plan
    ? `ClipCut ${PLANS[plan.plan].name} plan, billed ${plan.billing}`
    : `ClipCut credit pack: ${creditPack(lookupKey)?.name ?? lookupKey}`;
  const subscription = session.mode === "subscription";
  const tax = session.automatic_tax.enabled
    ? `<p class="help">Tax: $0.00 (calculated by Stripe Tax from your address; the stand-in charges none).</p>`
    : "";
  const debit = subscription
    ? ""
    : `<form method="post" class="card test"><input type="hidden" name="method" value="us_bank_account">
<h2>Test option: US bank account, ACH Direct Debit (delayed payment)</h2>
<p class="help" id="bank-help">The checkout completes unpaid; the bank's answer comes when this customer's test clock
next advances (<code>POST /dev/stripe/advance</code>). Routing number 110000000 with account 000123456789 is paid
then; with account 000111111113 it fails then (account closed).</p>
<label for="routingNumber">Routing number</label>
<input id="routingNumber" name="routingNumber" inputmode="numeric" autocomplete="off" value="110000000" required>
<label for="accountNumber">Account number</label>
<input id="accountNumber" name="accountNumber" inputmode="numeric" autocomplete="off" placeholder="000123456789" required
  aria-describedby="bank-help"${debitError && error ? ' aria-invalid="true"' : ""}>
${needsAddress ? addressFields("debit-") : ""}${debitError ? alert(error) : ""}
<button type="submit" class="secondary">Debit my account</button></form>`;
  const body =
    session.status !== "open"
      ? `<p class="alert" role="alert">This checkout is no longer open.</p>`
      : `<form method="post" class="card"><input type="hidden" name="method" value="card">${cardField(Boolean(error) && !debitError)}
${needsAddress ? addressFields("") : ""}${debitError ? "" : alert(error)}
  <button type="submit">${subscription ? "Pay and subscribe" : "Pay"}</button></form>${debit}
  <p><a href="${escape(String(session.cancel_url))}">Cancel and return to ClipCut</a></p>`;
  return page(
    "Checkout",
    `<p class="tag">Local mode · Stripe test checkout</p><h1>${escape(title)}</h1>
<p data-testid="checkout-amount" style="font-size:1.875rem;font-weight:700">${formatCents(Number(session.amount_total))}</p>${tax}${body}`,
    error ? 402 : 200,
  );
}
