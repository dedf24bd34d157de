/**
 * Local only: the Customer Portal page (as its configuration allows: the card, cancel or renew, the invoice history)
 * and an invoice's hosted page (its lines; for an open one, payment with the 3-D Secure step Stripe's test cards show)
 * and PDF, under /dev/stripe/.
 */
import type Stripe from "stripe";
import { z } from "zod";
import { textPdf } from "./invoice-pdf";
import {
  alert,
  cardField,
  dateOf,
  escape,
  money,
  notFound,
  page,
  parse,
  redirect,
  type Form,
  type Stub,
} from "./pages-kit";
import type { portalView } from "./stripe-portal";

const portalForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("card"), cardNumber: z.string().trim().min(1).max(40) }),
  z.object({ intent: z.literal("cancel") }),
  z.object({ intent: z.literal("renew") }),
]);
const authForm = z.object({ outcome: z.enum(["complete", "fail"]) });

type PortalView = NonNullable<ReturnType<typeof portalView>>;

export async function portalPage(stub: Stub, id: string, customer: string | null, form: Form) {
  const view = parse<PortalView>(await stub.portalView(id));
  if (!view || !customer || view.customer !== customer) return notFound();
  const returnUrl = String(view.returnUrl ?? "/billing");
  let error: string | null = null;
  if (form) {
    const parsed = portalForm.safeParse(form);
    const outcome = parsed.success
      ? await stub.portalAction(id, parsed.data)
      : { ok: false as const, message: "Unknown action." };
    if (outcome.ok) return redirect(returnUrl);
    error = outcome.message;
  }
  const { features, subscription: sub } = view;
  const card = features.paymentMethodUpdate
    ? `<form method="post" class="card"><input type="hidden" name="intent" value="card">${cardField(Boolean(error))}
<button type="submit">Save card</button></form>
<form method="post" class="card test"><input type="hidden" name="intent" value="card">
<input type="hidden" name="cardNumber" value="4000 0000 0000 0341">
<p class="help">Test only: save card 4000 0000 0000 0341, which is declined at the next renewal (advance this
customer's test clock past the period end to see it).</p><button type="submit" class="secondary">Decline the next renewal</button></form>`
    : "";
  const ends = sub ? dateOf(sub.periodEnd) : "";
  const cancel =
    sub && features.subscriptionCancel.enabled
      ? `<form method="post" class="card"><h2>Your subscription</h2>
<p>${escape(sub.plan)} · ${escape(sub.status)} · ${sub.cancelAtPeriodEnd ? `ends on ${ends}` : `renews on ${ends}`}</p>
${
  sub.cancelAtPeriodEnd
    ? `<input type="hidden" name="intent" value="renew"><button type="submit">Renew subscription</button>`
    : `<input type="hidden" name="intent" value="cancel"><button type="submit" class="secondary">Cancel subscription${
        features.subscriptionCancel.mode === "at_period_end" ? ` at the end of the period (${ends})` : " now"
      }</button>`
}</form>`
      : "";
  const history =
    features.invoiceHistory && view.invoices.length > 0
      ? `<section class="card"><h2>Invoice history</h2><table><thead><tr><th scope="col">Invoice</th><th scope="col">Status</th>
<th scope="col" class="num">Total</th></tr></thead><tbody>${view.invoices
          .map(
            (i) =>
              `<tr><td>${i.url ? `<a href="/dev/stripe/invoice/${escape(i.id)}">${escape(String(i.number))}</a>` : escape(String(i.number))}</td><td>${escape(String(i.status))}</td><td class="num">${money(i.total)}</td></tr>`,
          )
          .join("")}</tbody></table></section>`
      : "";
  return page(
    "Billing portal",
    `<p class="tag">Local mode · Stripe test portal</p><h1>Manage billing</h1>${alert(error)}${card}${cancel}${history}
<p><a href="${escape(returnUrl)}">Return to ClipCut</a></p>`,
    error ? 400 : 200,
  );
}

const linesTable = (lines: Stripe.InvoiceLineItem[]) =>
  `<table><thead><tr><th scope="col">Description</th><th scope="col">Period</th><th scope="col" class="num">Amount</th></tr></thead><tbody>${lines
    .map(
      (l) =>
        `<tr><td>${escape(String(l.description))}</td><td>${dateOf(l.period.start)} – ${dateOf(l.period.end)}</td><td class="num">${money(l.amount)}</td></tr>`,
    )
    .join("")}</tbody></table>`;

/** An invoice's page: its lines and totals; an open one can be paid, with the 3-D Secure step of the test cards. */
export async function invoicePage(stub: Stub, id: string, customer: string | null, form: Form) {
  const invoice = parse<Stripe.Invoice>(await stub.invoice(id));
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
  const lines = parse<Stripe.InvoiceLineItem[]>(await stub.invoiceLines(id)) ?? [];
  const pay =
    invoice.status !== "open"
      ? `<p class="alert" role="status">This invoice is ${escape(String(invoice.status))}.</p>`
      : `<form method="post" class="card"><p>Your bank asks you to confirm this payment (3-D Secure test).</p>${alert(error)}
<button type="submit" name="outcome" value="complete">Complete authentication</button>
<button type="submit" name="outcome" value="fail" class="secondary">Fail authentication</button></form>`;
  const credit =
    invoice.starting_balance < 0
      ? `<p class="help">Credit applied from your balance: ${money(-invoice.starting_balance)}.</p>`
      : "";
  return page(
    "Invoice",
    `<p class="tag">Local mode · Stripe test invoice</p><h1>Invoice ${escape(String(invoice.number))}</h1>
<p data-testid="invoice-amount" style="font-size:1.875rem;font-weight:700">${money(invoice.status === "open" ? invoice.amount_due : invoice.total)}</p>${pay}
<section class="card"><h2>Lines</h2>${linesTable(lines)}<p>Total ${money(invoice.total)} · amount due ${money(invoice.amount_due)}</p>${credit}
<p><a href="/dev/stripe/invoice/${escape(invoice.id)}/pdf">Download the PDF</a></p></section>
<p><a href="/billing">Return to ClipCut</a></p>`,
    error ? 402 : 200,
  );
}

/** The invoice's `invoice_pdf`: a one-page PDF of its lines and totals. */
export async function invoicePdf(stub: Stub, id: string, customer: string | null) {
  const invoice = parse<Stripe.Invoice>(await stub.invoice(id));
  if (!invoice || !customer || invoice.customer !== customer || invoice.status === "draft") return notFound();
  const lines = parse<Stripe.InvoiceLineItem[]>(await stub.invoiceLines(id)) ?? [];
  const pdf = textPdf([
    `ClipCut (local stand-in) - invoice ${String(invoice.number)}`,
    `Status: ${String(invoice.status)}    Issued: ${dateOf(invoice.created)}`,
    "",
    ...lines.map(
      (l) => `${money(l.amount)}  ${String(l.description)}  (${dateOf(l.period.start)} to ${dateOf(l.period.end)})`,
    ),
    "",
    `Total: ${money(invoice.total)}    Amount due: ${money(invoice.amount_due)}    Paid: ${money(invoice.amount_paid)}`,
  ]);
  return new Response(pdf, {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `inline; filename="${String(invoice.number)}.pdf"`,
      "Cache-Control": "no-store",
    },
  });
}
