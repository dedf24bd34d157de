import { SITE_ORIGIN } from "../../lib/config";
import type { Failure } from "../../lib/messages";

const external = (href: string, text: string, className = "font-semibold underline") => (
  <a href={href} target="_blank" rel="noreferrer" className={className}>
    {text}
  </a>
);

export function SignedOutNotice() {
  return (
    <p role="alert" className="alert-error">
      You are signed out. {external(`${SITE_ORIGIN}/signin`, "Sign in to ClipCut")} to create clips with your credits.
    </p>
  );
}

export function WatermarkNotice() {
  return (
    <p className="rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700">
      Clips on the Free plan carry a small ClipCut watermark. {external(`${SITE_ORIGIN}/pricing`, "Upgrade")} for clean
      exports.
    </p>
  );
}

/** Why this range or these options cannot be clipped as they are (too short, over the plan's limits). */
export function RangeNotice({ children }: { children: string }) {
  return <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">{children}</p>;
}

/** A refusal, with what to do: upgrade for a plan or credit limit, sign in when signed out. */
export function FailureNotice({ failure }: { failure: Failure }) {
  const link = (href: string, text: string) => external(href, text, "ml-1 font-semibold underline");
  return (
    <p role="alert" className="alert-error">
      {failure.message}
      {failure.kind === "credits" || failure.kind === "plan_limit" ? link(`${SITE_ORIGIN}/pricing`, "Upgrade") : null}
      {failure.kind === "signed_out" ? link(`${SITE_ORIGIN}/signin`, "Sign in") : null}
    </p>
  );
}
