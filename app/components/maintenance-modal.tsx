import { useFetcher } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { MAINTENANCE_NOTICE_DELAY_MS, SITE } from "~/domain/site";

/** Shown a fixed delay after entering the signed-in area while the session's notice flag is set; "Got it" clears it. */
export function MaintenanceModal({ show }: { show: boolean }) {
  const fetcher = useFetcher();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const dismissed = fetcher.state !== "idle" || fetcher.data !== undefined;

  useEffect(() => {
    if (!show) return;
    const timer = setTimeout(() => setOpen(true), MAINTENANCE_NOTICE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [show]);
  useEffect(() => {
    if (open) button.current?.focus();
  }, [open]);

  if (!open || dismissed) return null;
  return (
    <div className="fixed inset-0 z-50 grid place-items-center bg-slate-900/50 p-4">
      <div
        role="dialog"
        aria-modal="true"
        aria-labelledby="maintenance-title"
        className="card w-full max-w-md"
        onKeyDown={(event) => {
          // Escape closes it like "Got it" does.
          if (event.key === "Escape") fetcher.submit(null, { method: "post", action: "/notice/dismiss" });
        }}
      >
        <h2 id="maintenance-title" className="text-lg font-semibold">
          Heads up: scheduled improvements
        </h2>
        <p className="mt-3 text-sm text-slate-600">
          We&apos;re improving ClipCut. You may notice short interruptions while we roll out updates. Follow us for
          news:
        </p>
        <ul className="mt-3 flex flex-wrap gap-3 text-sm">
          {SITE.social.map((s) => (
            <li key={s.name}>
              <a href={s.href} target="_blank" rel="noopener noreferrer" className="text-brand-700 underline">
                {s.name}
              </a>
            </li>
          ))}
        </ul>
        <fetcher.Form method="post" action="/notice/dismiss" className="mt-6 flex justify-end">
          <button ref={button} type="submit" className="btn-primary">
            Got it
          </button>
        </fetcher.Form>
      </div>
    </div>
  );
}
