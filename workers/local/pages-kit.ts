/**
 * Local only: what the stand-in's hosted pages (pages.ts, pages-billing.ts) share — their HTML frame and styles, the
 * card field, form reading, redirects. Plain HTML forms, no script.
 */
import { formatCents } from "../../app/domain/plans";
import type { LocalStandIn } from "./stand-in-object";
import { STAND_IN_MARKER, type Obj } from "./stripe-api";

export type Stub = DurableObjectStub<LocalStandIn>;
export type Form = Record<string, string> | null;

export const escape = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export function page(title: string, body: string, status = 200): Response {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="${STAND_IN_MARKER}"><title>${escape(title)} (local test mode) | ClipCut</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;background:#f8fafc;color:#0f172a}
main{max-width:28rem;margin:0 auto;padding:3rem 1rem}
h2{font-size:1rem;margin:0 0 .5rem}
.tag{font-size:.75rem;font-weight:600;text-transform:uppercase;letter-spacing:.05em;color:#b45309}
.card{background:#fff;border:1px solid #e2e8f0;border-radius:.75rem;padding:1rem;margin-top:1.5rem}
.test{border-style:dashed;border-color:#b45309}
label{display:block;font-size:.875rem;font-weight:500;margin-top:.75rem}
input,select{width:100%;box-sizing:border-box;margin-top:.25rem;padding:.5rem;border:1px solid #94a3b8;border-radius:.5rem;font-size:1rem;background:#fff}
button{width:100%;margin-top:1rem;padding:.6rem;border:0;border-radius:.5rem;background:#4f46e5;color:#fff;font-size:1rem;cursor:pointer}
button.secondary{background:#e2e8f0;color:#0f172a}
button:focus-visible,input:focus-visible,select:focus-visible,a:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.help{font-size:.75rem;color:#475569}
.alert{margin-top:1rem;padding:.75rem;border-radius:.5rem;background:#fef2f2;color:#991b1b}
table{width:100%;border-collapse:collapse;font-size:.875rem}
th,td{text-align:left;padding:.35rem .25rem;border-bottom:1px solid #e2e8f0}
td.num{text-align:right;font-variant-numeric:tabular-nums}
a{color:#334155}
</style></head><body><main>${body}</main></body></html>`;
  return new Response(html, {
    status,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
  });
}

export const alert = (message: string | null) =>
  message ? `<p id="form-error" class="alert" role="alert">${escape(message)}</p>` : "";

export const cardField = (error: boolean) => `<div>
  <label for="cardNumber">Card number</label>
  <input id="cardNumber" name="cardNumber" inputmode="numeric" autocomplete="cc-number" placeholder="4242 4242 4242 4242"
    required aria-describedby="${error ? "form-error card-help" : "card-help"}"${error ? ' aria-invalid="true"' : ""}>
  <p id="card-help" class="help">Test cards: 4242 4242 4242 4242 pays; 4000 0000 0000 0002 is declined;
  4000 0000 0000 0341 is saved but declined when charged later; 4000 0027 6000 3184 asks for 3-D Secure;
  4000 0000 0000 7726 pays and its refunds are pending first; 4000 0000 0000 5126 pays and its refunds fail later;
  4000 0000 0000 0259 pays and is then disputed as fraudulent.</p>
</div>`;

export async function formOf(request: Request): Promise<Record<string, string>> {
  try {
    return Object.fromEntries([...(await request.formData())].map(([k, v]) => [k, String(v)]));
  } catch {
    return {};
  }
}

export const redirect = (to: string) => new Response(null, { status: 302, headers: { Location: to } });

export const parse = <T = Obj>(text: string | null) => (text ? (JSON.parse(text) as T) : null);

export const notFound = () => new Response("Not Found", { status: 404 });

export const dateOf = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

/** An amount of money, a credit with its minus sign in front. */
export const money = (cents: number) => (cents < 0 ? `−${formatCents(-cents)}` : formatCents(cents));
