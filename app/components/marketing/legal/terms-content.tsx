import { Link } from "@remix-run/react";
import { NEW_USER_CREDITS } from "~/domain/credits";
import { PLANS } from "~/domain/plans";
import { LEGAL, SITE } from "~/domain/site";
import type { LegalSection } from "./legal-page";

const mail = <a href={`mailto:${SITE.supportEmail}`}>{SITE.supportEmail}</a>;

export const TERMS_INTRO = (
  <p>
    These terms are the agreement between you and ClipCut for using the ClipCut website, browser extension and local
    helper (together, the “Service”). Please read them: by creating an account or using the Service you accept them.
  </p>
);

export const TERMS_SECTIONS: readonly LegalSection[] = [
  {
    id: "accounts",
    title: "Your account",
    body: (
      <>
        <p>
          You must be at least {LEGAL.minimumAge} years old to use ClipCut. If you are under the age of majority where
          you live, you need a parent or guardian’s permission.
        </p>
        <p>
          Keep your password safe and tell us at once if you think someone else has used your account. You are
          responsible for what happens under your account.
        </p>
      </>
    ),
  },
  {
    id: "credits-and-plans",
    title: "Credits and plans",
    body: (
      <>
        <p>
          Creating a clip costs credits. The cost depends on the clip’s length, format and quality and is shown before
          you create it. Credits have no cash value, cannot be transferred and are not refundable on their own.
        </p>
        <ul>
          <li>
            The Free plan includes {NEW_USER_CREDITS} one-time credits, clips of up to {PLANS.Free.maxClipSeconds}{" "}
            seconds and a watermark on exports.
          </li>
          <li>
            Paid plans (Basic, Advanced and Pro) add a monthly credit allowance and the limits shown on our{" "}
            <Link to="/pricing">pricing page</Link>, billed monthly or yearly in advance.
          </li>
          <li>Upgrades take effect immediately. Downgrades take effect at the start of your next billing cycle.</li>
          <li>
            Subscriptions renew automatically until you cancel. You can cancel at any time; you keep your plan until the
            end of the period you paid for.
          </li>
        </ul>
        <p>We may change prices for future billing periods; we will tell you before a change affects you.</p>
      </>
    ),
  },
  {
    id: "money-back",
    title: `${LEGAL.moneyBackDays}-day money-back guarantee`,
    body: (
      <p>
        If you are not happy with a new subscription, email {mail} within {LEGAL.moneyBackDays} days of your first
        payment and we will refund that payment in full. The guarantee applies to new subscriptions only, not to
        renewals or to a plan you have already had refunded.
      </p>
    ),
  },
  {
    id: "acceptable-use",
    title: "Acceptable use",
    body: (
      <>
        <p>ClipCut is a tool; you are responsible for what you clip and how you use it. You agree not to:</p>
        <ul>
          <li>
            clip, download or share content you do not own or have permission to use, unless the law allows it (for
            example fair use);
          </li>
          <li>break the terms of the platforms you clip from;</li>
          <li>use the Service for illegal, harmful, hateful or sexually exploitative content;</li>
          <li>try to get around credits, plan limits, watermarks or rate limits;</li>
          <li>attack, overload, reverse engineer or scrape the Service, or share your account.</li>
        </ul>
        <p>We may suspend or close accounts that break these rules.</p>
      </>
    ),
  },
  {
    id: "your-content",
    title: "Your content and our software",
    body: (
      <p>
        Clips you make are processed on your computer and belong to you, subject to the rights of whoever owns the
        original video. The ClipCut website, extension, local helper, name and logo belong to us; we give you a
        personal, non-exclusive licence to use them while your account is in good standing.
      </p>
    ),
  },
  {
    id: "availability",
    title: "Availability and changes",
    body: (
      <p>
        We work hard to keep ClipCut available, but we cannot promise that it will always work without interruption, or
        with every website or video. We may change or remove features; if a change takes away something you paid for, we
        will tell you and offer a fair solution.
      </p>
    ),
  },
  {
    id: "disclaimer",
    title: "Disclaimer",
    body: (
      <p>
        Except where the law does not allow it, the Service is provided “as is” and “as available”, without warranties
        of any kind, including warranties of merchantability, fitness for a particular purpose and non-infringement.
      </p>
    ),
  },
  {
    id: "liability",
    title: "Limitation of liability",
    body: (
      <p>
        To the fullest extent the law allows, ClipCut is not liable for indirect, incidental, special or consequential
        damages, or for lost profits, data or goodwill. Our total liability for any claim about the Service is limited
        to the amount you paid us in the 12 months before the event that gave rise to the claim.
      </p>
    ),
  },
  {
    id: "termination",
    title: "Ending the agreement",
    body: (
      <p>
        You can stop using ClipCut at any time and ask us to delete your account. We may suspend or end your access if
        you seriously or repeatedly break these terms. Sections that by their nature should survive (such as the limits
        on liability) stay in force after the agreement ends.
      </p>
    ),
  },
  {
    id: "governing-law",
    title: "Governing law",
    body: (
      <p>
        These terms are governed by the laws of {LEGAL.governingLaw}, United States, without regard to its conflict of
        law rules. Any dispute will be heard in the state or federal courts located in Delaware, unless the law of your
        country gives you the right to bring it elsewhere.
      </p>
    ),
  },
  {
    id: "contact",
    title: "Changes and contact",
    body: (
      <p>
        We may update these terms; we will change the date at the top of this page and tell you about significant
        changes in advance. Questions? Email {mail} or use our <Link to="/contact">contact form</Link>.
      </p>
    ),
  },
];
