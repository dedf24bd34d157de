import { PLANS } from "./plans";
import { LEGAL, SITE } from "./site";

/** One question and its answer; the domain owns the shape, the accordion component renders it. */
export interface FaqItem {
  question: string;
  answer: string;
}

export const PRICING_FAQ: readonly FaqItem[] = [
  {
    question: "How do credits work?",
    answer:
      "Each clip costs credits based on its length and quality: about 1 credit per 30 seconds, more for higher quality. A short 720p clip costs about 2 credits; a long 4K clip about 20.",
  },
  {
    question: "Can I change my plan later?",
    answer:
      "Yes. Upgrades apply immediately and top up your credits; downgrades take effect at the start of your next billing cycle.",
  },
  {
    question: "What does the Free plan include?",
    answer: `${PLANS.Free.credits} one-time credits, clips up to ${PLANS.Free.maxClipSeconds} seconds, up to 720p, MP4, MP3 and GIF exports with a small watermark.`,
  },
  {
    question: "Is there a refund policy?",
    answer: `New subscriptions come with a ${LEGAL.moneyBackDays}-day money-back guarantee.`,
  },
  {
    question: "How much do I save with annual billing?",
    answer: "Annual billing saves about 33% compared with paying month by month.",
  },
];

export const CONTACT_FAQ: readonly FaqItem[] = [
  {
    question: "How quickly will I hear back?",
    answer: `Our support team replies within about ${SITE.supportReplyHours} hours, usually sooner on weekdays.`,
  },
  {
    question: "The extension does not detect my video. What can I do?",
    answer:
      "Make sure the companion app is running, reload the video page, and check that the extension is enabled. The Help Center has a step-by-step guide.",
  },
  {
    question: "Can I get a refund?",
    answer: `Yes: new subscriptions have a ${LEGAL.moneyBackDays}-day money-back guarantee. Write to ${SITE.supportEmail} with your account e-mail.`,
  },
  {
    question: "Do you offer team plans?",
    answer: "The Pro plan includes up to 5 team members. Contact us for larger teams.",
  },
];
