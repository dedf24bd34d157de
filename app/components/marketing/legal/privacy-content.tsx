import { Link } from "@remix-run/react";
import { BILLING_RECORDS_YEARS } from "~/domain/account-deletion";
import { LEGAL, SITE } from "~/domain/site";
import type { LegalSection } from "./legal-page";

const mail = <a href={`mailto:${SITE.supportEmail}`}>{SITE.supportEmail}</a>;

export const PRIVACY_INTRO = (
  <p>
    This policy explains what information ClipCut keeps about you, why we keep it and what you can do about it. We
    collect as little as we can: your clips are cut on your own computer, and we never sell your data.
  </p>
);

export const PRIVACY_SECTIONS: readonly LegalSection[] = [
  {
    id: "who-we-are",
    title: "Who we are",
    body: (
      <p>
        ClipCut (“we”, “us”) runs the ClipCut website and browser extension. Our office is at {SITE.office}. For any
        question about this policy or your data, email {mail}.
      </p>
    ),
  },
  {
    id: "data-we-keep",
    title: "What data we keep",
    body: (
      <>
        <p>We keep only what we need to run your account and your clips:</p>
        <ul>
          <li>
            <strong>Account:</strong> your full name, email address, a secure hash of your password (never the password
            itself) or your Google account identifier if you sign in with Google, your plan and your account settings.
          </li>
          <li>
            <strong>Clips:</strong> for each clip you create, its name, the link of the source video, the start and end
            times, the format, the quality, its credit cost and when you made it. The video and audio files themselves
            are processed on your computer and are not uploaded to us.
          </li>
          <li>
            <strong>Credits ledger:</strong> a record of every change to your credit balance (starter credits, plan
            credits, clips, refunds and adjustments), with the amount, the balance afterwards and the date.
          </li>
          <li>
            <strong>Contact messages:</strong> the name, email address, topic and message you send us through the
            contact form.
          </li>
          <li>
            <strong>Sign-in sessions:</strong> when you signed in, your browser type and IP address, so we can keep you
            signed in and protect your account.
          </li>
          <li>
            <strong>“Notify Me” requests:</strong> the email address you leave to hear when a new browser extension
            (such as Safari) is ready.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: "how-we-use-it",
    title: "How we use your data",
    body: (
      <>
        <p>We use your data to:</p>
        <ul>
          <li>create and secure your account and keep you signed in;</li>
          <li>count and charge credits for your clips and show you your clip and credit history;</li>
          <li>answer your support and contact messages;</li>
          <li>send you the emails you ask for, such as password resets and launch notices;</li>
          <li>prevent abuse, for example by limiting how often a form can be sent from one address.</li>
        </ul>
        <p>We do not use your data for advertising and we do not sell or rent it to anyone.</p>
      </>
    ),
  },
  {
    id: "cookies",
    title: "Cookies",
    body: (
      <>
        <p>
          ClipCut uses <strong>one cookie</strong>: a session cookie that keeps you signed in. It holds only a random
          identifier, is sent only to our site over a secure connection, cannot be read by scripts, and expires when you
          sign out or after 30 days. Because it is strictly necessary for signing in, it does not need consent.
        </p>
        <p>We do not use advertising, tracking or analytics cookies.</p>
        <p>
          When you load a video in the <Link to="/clip">Video Cutter</Link>, the player is embedded from YouTube in its
          privacy-enhanced mode (youtube-nocookie.com). YouTube’s own privacy policy applies to that player.
        </p>
      </>
    ),
  },
  {
    id: "sharing",
    title: "Who we share data with",
    body: (
      <p>
        We share data only with the service providers that help us run ClipCut, such as our hosting and database
        provider and our email delivery provider, and only so they can provide that service to us. We may also disclose
        data when the law requires it. We never share your data with advertisers.
      </p>
    ),
  },
  {
    id: "retention",
    title: "How long we keep it",
    body: (
      <p>
        We keep your account, clips and credits ledger for as long as your account exists. When your account is deleted,
        we delete your profile, clips and sessions; we may keep billing records for as long as tax and accounting law
        requires. Contact messages are kept for as long as we need them to help you. Expired sessions are removed
        automatically.
      </p>
    ),
  },
  {
    id: "deleting-your-account",
    title: "Deleting your account and what we keep",
    body: (
      <>
        <p>
          On your <Link to="/account">account page</Link> you can download a copy of your data (one file with your
          profile, clips, credit history, invoices and payments, sessions and team) and delete your account yourself,
          with your password. Our support team can also delete it when you ask them to.
        </p>
        <p>When your account is deleted:</p>
        <ul>
          <li>
            <strong>Erased at once:</strong> your name, email address, password hash and Google link, your settings,
            clips, presets, sign-in sessions and extension tokens, the browsers you signed in from, team invitations to
            or from you, and contact messages and “Notify Me” requests sent from your address.
          </li>
          <li>
            <strong>Ended at once:</strong> a subscription is cancelled (if you paid for it within the last{" "}
            {LEGAL.moneyBackDays} days, the money of its unspent credits is refunded under our money-back guarantee),
            your credits are cancelled, and you leave your team, or your team closes if you own it.
          </li>
          <li>
            <strong>Kept without your name or email address for {BILLING_RECORDS_YEARS} years:</strong> your invoices
            and payments, your credits ledger and the paid plan lines behind it, as tax and accounting law requires.
            They are tied only to a random account number that no longer leads to you.
          </li>
          <li>
            <strong>Kept without your name, email address or IP address:</strong> the entries of our security log about
            your account (for example that it was deleted, when and by whom), for as long as the billing records above.
          </li>
        </ul>
        <p>
          Our payment provider, Stripe, keeps its own record of your payments under its privacy policy. A backup of our
          database may hold your data for up to 30 days before it is overwritten.
        </p>
      </>
    ),
  },
  {
    id: "security",
    title: "Security",
    body: (
      <p>
        All traffic to ClipCut is encrypted with HTTPS. Passwords are stored only as strong one-way hashes, and the
        session cookie holds a random value whose hash is all we store, so even a copy of our database would not let
        anyone sign in as you.
      </p>
    ),
  },
  {
    id: "your-rights",
    title: "Your rights",
    body: (
      <p>
        You can see and update your name on your account page at any time. You can also ask us for a copy of your data,
        to correct it, or to delete your account and data: email {mail} and we will answer within about{" "}
        {SITE.supportReplyHours} hours and complete the request within 30 days.
      </p>
    ),
  },
  {
    id: "children",
    title: "Children",
    body: (
      <p>
        ClipCut is not intended for children under {LEGAL.minimumAge}. We do not knowingly collect data from children
        under {LEGAL.minimumAge}. If you believe a child has given us personal data, email {mail} and we will delete it.
      </p>
    ),
  },
  {
    id: "changes",
    title: "Changes to this policy",
    body: (
      <p>
        If we change this policy, we will update the date at the top of this page. If the change is significant, we will
        also tell you by email or in the app before it takes effect.
      </p>
    ),
  },
  {
    id: "contact",
    title: "Contact us",
    body: (
      <p>
        Questions about your privacy? Email {mail}, use our <Link to="/contact">contact form</Link>, or write to us at{" "}
        {SITE.office}.
      </p>
    ),
  },
];
