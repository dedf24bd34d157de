import { Form, Link, useLocation, useNavigate, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { AUTO_CLOSE_MS } from "~/domain/admin";
import { clipRangeError } from "~/domain/clip-request";
import { clipCost } from "~/domain/credits";
import { parseClockTime } from "~/domain/time";

/** What a page's action answers a refused Create Clip post with (app/services/admin-clip-form.server.ts). */
export interface CreateClipAnswer {
  intent: "create";
  error: string;
  upgrade?: boolean;
  values: {
    name: string;
    videoUrl: string;
    start: string;
    end: string;
    quality: "720p" | "1080p";
    key: string | null;
  };
}

/** The current page's address with the dialog's parameters set or removed. */
function useHereWith(changes: Record<string, string | null>): string {
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) params.delete(name);
    else params.set(name, value);
  }
  const search = params.toString();
  return search ? `${location.pathname}?${search}` : location.pathname;
}

/** "Create Clip" (Calendars and Clips): a plain link to the page with `?modal=create`, so it works without JavaScript. */
export function CreateClipLink() {
  const href = useHereWith({ modal: "create", created: null });
  return (
    <Link to={href} preventScrollReset className="btn-primary">
      Create Clip
    </Link>
  );
}

/**
 * The Create Clip dialog, rendered by the page when its URL has `?modal=create`. A real form posted to the page's
 * action (`intent=create`), so it works without JavaScript; with it the cost follows the fields live, the button
 * waits for a valid range, Escape closes, and the dialog closes itself 2 s after success. Each opening is a
 * navigation, so it mounts afresh with a new idempotency key.
 */
export function CreateClipModal({
  formKey,
  created,
  answer,
}: {
  /** A fresh key from the loader; the dialog keeps the one it opened with (a live refresh must not change it). */
  formKey: string;
  /** The success line after the redirect, or null. */
  created: string | null;
  /** The action's refusal (error and the fields as posted), or null. */
  answer: CreateClipAnswer | null;
}) {
  const posted = answer?.values;
  const [name, setName] = useState(posted?.name ?? "");
  const [videoUrl, setVideoUrl] = useState(posted?.videoUrl ?? "");
  const [start, setStart] = useState(posted?.start ?? "00:00");
  const [end, setEnd] = useState(posted?.end ?? "00:00");
  const [quality, setQuality] = useState<"720p" | "1080p">(posted?.quality ?? "720p");
  // One key per opening (the posted one after a refusal): a double click, or a retried post, charges once.
  const [key] = useState(() => posted?.key ?? formKey);
  // Before hydration the button stays enabled: without JavaScript the server is the only check.
  const [hydrated, setHydrated] = useState(false);
  const first = useRef<HTMLInputElement>(null);
  const navigate = useNavigate();
  const navigation = useNavigation();
  const closeHref = useHereWith({ modal: null, created: null });
  const cost = clipCost(parseClockTime(end) - parseClockTime(start), "mp4", quality);
  // The one clip-range rule (end after start, 0.1 s minimum; the 24 h cap is the server's).
  const rangeError = clipRangeError(parseClockTime(start), parseClockTime(end));
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "create";
  const succeeded = created !== null;
  const disabled = busy || (hydrated && (!name.trim() || !videoUrl.trim() || rangeError !== null));

  useEffect(() => {
    setHydrated(true);
    first.current?.focus();
  }, []);
  useEffect(() => {
    if (!succeeded) return;
    const timer = setTimeout(() => navigate(closeHref, { replace: true, preventScrollReset: true }), AUTO_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [succeeded, closeHref, navigate]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && !busy) navigate(closeHref, { preventScrollReset: true });
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [busy, closeHref, navigate]);

  return (
    <div className="fixed inset-0 z-40 flex items-start justify-center overflow-y-auto bg-slate-900/40 p-4">
      <div
        role="dialog"
        aria-modal="true"
        aria-labelledby="create-clip-title"
        className="mt-10 w-full max-w-lg rounded-2xl bg-white p-6 shadow-xl"
      >
        <div className="flex items-start justify-between">
          <h2 id="create-clip-title" className="text-lg font-semibold">
            Create Clip
          </h2>
          <Link
            to={closeHref}
            preventScrollReset
            replace
            className="btn-ghost -mr-2 -mt-2 px-2 py-1"
            aria-label="Close"
          >
            ✕
          </Link>
        </div>
        {succeeded ? (
          <div className="mt-4 space-y-4">
            <p role="status" className="alert-success">
              {created}
            </p>
            <div className="flex justify-end">
              <Link to={closeHref} preventScrollReset replace className="btn-primary">
                Done
              </Link>
            </div>
          </div>
        ) : (
          <Form method="post" preventScrollReset className="mt-4 space-y-4">
            <input type="hidden" name="intent" value="create" />
            <input type="hidden" name="key" value={key} />
            <div>
              <label htmlFor="clip-name" className="label">
                Clip Name
              </label>
              <input
                ref={first}
                id="clip-name"
                name="name"
                required
                maxLength={200}
                value={name}
                onChange={(e) => setName(e.target.value)}
                className="input"
              />
            </div>
            <div>
              <label htmlFor="clip-url" className="label">
                YouTube Video URL
              </label>
              <input
                id="clip-url"
                name="videoUrl"
                type="url"
                required
                value={videoUrl}
                onChange={(e) => setVideoUrl(e.target.value)}
                placeholder="https://www.youtube.com/watch?v=..."
                className="input"
              />
            </div>
            <div className="grid grid-cols-2 gap-4">
              <div>
                <label htmlFor="clip-start" className="label">
                  Start Time (mm:ss)
                </label>
                <input
                  id="clip-start"
                  name="start"
                  required
                  value={start}
                  onChange={(e) => setStart(e.target.value)}
                  className="input"
                />
              </div>
              <div>
                <label htmlFor="clip-end" className="label">
                  End Time (mm:ss)
                </label>
                <input
                  id="clip-end"
                  name="end"
                  required
                  value={end}
                  onChange={(e) => setEnd(e.target.value)}
                  className="input"
                />
              </div>
            </div>
            <div>
              <label htmlFor="clip-quality" className="label">
                Quality
              </label>
              <select
                id="clip-quality"
                name="quality"
                value={quality}
                onChange={(e) => setQuality(e.target.value === "1080p" ? "1080p" : "720p")}
                className="input"
              >
                <option value="720p">720p</option>
                <option value="1080p">1080p</option>
              </select>
            </div>
            <p className="rounded-lg bg-slate-50 px-4 py-3 text-sm">
              {/* Without JavaScript the figure cannot follow the fields: it is the charge's line after creating. */}
              Credit Cost:{" "}
              {hydrated || answer ? (
                <strong data-testid="credit-cost">{cost}</strong>
              ) : (
                <span className="text-slate-600">shown once the clip is created</span>
              )}
            </p>
            {hydrated && rangeError && parseClockTime(end) !== 0 && (
              <p className="text-sm text-amber-800">{rangeError}</p>
            )}
            {answer && (
              <p role="alert" className="alert-error">
                {answer.error}{" "}
                {answer.upgrade && (
                  <Link to="/pricing" className="font-semibold underline">
                    Upgrade Plan
                  </Link>
                )}
              </p>
            )}
            <div className="flex justify-end gap-2">
              <Link to={closeHref} preventScrollReset replace className="btn-secondary">
                Cancel
              </Link>
              <button type="submit" className="btn-primary" disabled={disabled}>
                {busy ? "Processing..." : "Confirm & Create Clip"}
              </button>
            </div>
          </Form>
        )}
      </div>
    </div>
  );
}
