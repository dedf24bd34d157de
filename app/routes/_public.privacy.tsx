import type { MetaFunction } from "@remix-run/cloudflare";
import { LegalPage } from "~/components/marketing/legal/legal-page";
import { PRIVACY_INTRO, PRIVACY_SECTIONS } from "~/components/marketing/legal/privacy-content";
import { LEGAL } from "~/domain/site";

export default function Privacy() {
  return (
    <LegalPage
      title="Privacy Policy"
      updated={LEGAL.privacyPolicyDate}
      intro={PRIVACY_INTRO}
      sections={PRIVACY_SECTIONS}
    />
  );
}

export const meta: MetaFunction = () => [
  { title: "Privacy Policy | ClipCut" },
  {
    name: "description",
    content:
      "What data ClipCut keeps (account, clips, credits ledger, contact messages), our single session cookie, and your privacy rights.",
  },
];
