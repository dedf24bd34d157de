import type { MetaFunction } from "@remix-run/cloudflare";
import { LegalPage } from "~/components/marketing/legal/legal-page";
import { TERMS_INTRO, TERMS_SECTIONS } from "~/components/marketing/legal/terms-content";
import { LEGAL } from "~/domain/site";

export default function Terms() {
  return (
    <LegalPage
      title="Terms of Service"
      updated={LEGAL.privacyPolicyDate}
      intro={TERMS_INTRO}
      sections={TERMS_SECTIONS}
    />
  );
}

export const meta: MetaFunction = () => [
  { title: "Terms of Service | ClipCut" },
  {
    name: "description",
    content: `The terms for using ClipCut: credits and plans, a ${LEGAL.moneyBackDays}-day money-back guarantee for new subscriptions, acceptable use and Delaware governing law.`,
  },
];
