import { useActionData, useFetcher } from "@remix-run/react";

export type NotifyResult =
  { ok: true; message: string } | { ok: false; formError?: string; fieldErrors: { email?: string } };

/**
 * Safari "Notify Me": an email form posting to /download's action. With JavaScript it submits in place
 * (useFetcher); without, it is a plain POST and the page re-renders with the action's answer.
 */
export function NotifyForm() {
  const fetcher = useFetcher<NotifyResult>();
  const actionData = useActionData<NotifyResult>();
  const result = fetcher.data ?? actionData;
  const busy = fetcher.state !== "idle";

  if (result?.ok) {
    return (
      <p role="status" className="alert-success mt-4">
        {result.message}
      </p>
    );
  }

  const emailError = result?.fieldErrors.email;
  return (
    <fetcher.Form method="post" className="mt-4" noValidate preventScrollReset>
      <label htmlFor="notify-email" className="label">
        Email address
      </label>
      <div className="flex flex-col gap-2">
        <input
          id="notify-email"
          name="email"
          type="email"
          autoComplete="email"
          inputMode="email"
          required
          maxLength={254}
          placeholder="you@example.com"
          className="input"
          aria-invalid={emailError ? true : undefined}
          aria-describedby={emailError ? "notify-email-error" : "notify-email-hint"}
        />
        <button type="submit" className="btn-primary w-full" disabled={busy}>
          {busy ? "Sending..." : "Notify Me"}
        </button>
      </div>
      {emailError ? (
        <p id="notify-email-error" className="mt-2 text-sm text-red-700">
          {emailError}
        </p>
      ) : (
        <p id="notify-email-hint" className="mt-2 text-xs text-slate-600">
          One email when it&apos;s ready. No spam.
        </p>
      )}
      {result?.formError && (
        <p role="alert" className="alert-error mt-3">
          {result.formError}
        </p>
      )}
    </fetcher.Form>
  );
}
