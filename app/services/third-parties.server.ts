/**
 * The third parties ClipCut talks to over the network, as ports: Stripe's API (the fetch its SDK uses) and the e-mail
 * provider. They are chosen once, where the Worker builds the request context (workers/app.ts): production passes
 * these defaults; the local entry (workers/local.ts) passes its stand-ins. Services use whatever they are given and
 * never ask which one it is.
 */
import type { AppEnv } from "~/load-context";
import type { EmailMessage } from "./email.server";

export interface Mailer {
  send(message: EmailMessage): Promise<void>;
}

export interface ThirdParties {
  /** The fetch the Stripe SDK sends its requests through. */
  stripeFetch: typeof fetch;
  mailer: Mailer;
}

export class EmailDeliveryError extends Error {}

/** Production e-mail: a Resend-style HTTP API (POST {from,to,subject,text,html} with a Bearer key) set by secrets. */
export function httpMailer(env: AppEnv, fetcher: typeof fetch = fetch): Mailer {
  return {
    async send(message) {
      if (!env.EMAIL_API_URL || !env.EMAIL_API_KEY || !env.EMAIL_FROM) {
        throw new EmailDeliveryError("E-mail is not configured: set EMAIL_API_URL, EMAIL_API_KEY and EMAIL_FROM.");
      }
      const response = await fetcher(env.EMAIL_API_URL, {
        method: "POST",
        headers: { Authorization: `Bearer ${env.EMAIL_API_KEY}`, "Content-Type": "application/json" },
        body: JSON.stringify({
          from: env.EMAIL_FROM,
          to: [message.to],
          subject: message.subject,
          text: message.text,
          html: message.html,
        }),
      });
      if (!response.ok) throw new EmailDeliveryError(`E-mail provider answered ${response.status}.`);
    },
  };
}

export function productionThirdParties(env: AppEnv): ThirdParties {
  return { stripeFetch: (input, init) => fetch(input, init), mailer: httpMailer(env) };
}

/** What the composition point chose for this request; the production parts when nothing was composed (a DO, a cron). */
export const thirdPartiesOf = (env: AppEnv): ThirdParties => env.THIRD_PARTIES ?? productionThirdParties(env);
