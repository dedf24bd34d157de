import { Link, useFetcher, useLocation } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { AUTO_CLOSE_MS } from "~/domain/admin";
import { clipRangeError } from "~/domain/clip-request";
import { clipCost } from "~/domain/credits";
import { parseClockTime } from "~/domain/time";
import type { CreateClipResult } from "~/domain/admin";

/** "Create Clip" button and its modal (Calendars and Clips). Each opening mounts a fresh form: every field resets. */
export function CreateClipButton() {
  const [open, setOpen] = useState(0);
  const buttonRef = useRef<HTMLButtonElement>(null);
  // One function for the modal's life: the auto-close timer depends on it, and a new one on every render of this
  // button (each live-feed refresh of the page re-renders it) restarted the 2 s timer, so the dialog stayed open.
  const close = useCallback(() => {
    setOpen(0);
    buttonRef.current?.focus();
  }, []);
  return (
    <>
      <button ref={buttonRef} type="button" className="btn-primary" onClick={() => setOpen((n) => n + 1)}>
        Create Clip
      </button>
      {open > 0 && <CreateClipModal key={open} onClose={close} />}
    </>
  );
}

function CreateClipModal({ onClose }: { onClose: () => void }) {
  const fetcher = useFetcher<CreateClipResult>();
  const [name, setName] = useState("");
  const [videoUrl, setVideoUrl] = useState("");
  const [start, setStart] = useState("00:00");
  const [end, setEnd] = useState("00:00");
  const [quality, setQuality] = useState<"720p" | "1080p">("720p");
  // One key per opening: a double click (or a retried post) charges once.
  const [key] = useState(() => crypto.randomUUID());
  const first = useRef<HTMLInputElement>(null);
  const location = useLocation();
  const cost = clipCost(parseClockTime(end) - parseClockTime(start), "mp4", quality);
  // The one clip-range rule (end after start, 0.1 s minimum; the 24 h cap is the server's): the button waits for a valid range.
  const rangeError = clipRangeError(parseClockTime(start), parseClockTime(end));
  const busy = fetcher.state !== "idle";
  const result = fetcher.data;
  const succeeded = result?.ok === true;
  const disabled = busy || succeeded || !name.trim() || !videoUrl.trim() || rangeError !== null;

  useEffect(() => first.current?.focus(), []);
  useEffect(() => {
    if (!succeeded) return;
    const timer = setTimeout(onClose, AUTO_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [succeeded, onClose]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && !busy && onClose();
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [busy, onClose]);

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
          <button type="button" onClick={onClose} className="btn-ghost -mr-2 -mt-2 px-2 py-1" aria-label="Close">
            ✕
          </button>
        </div>
        <fetcher.Form method="post" action="/admin/create-clip" className="mt-4 space-y-4">
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
            Credit Cost: <strong data-testid="credit-cost">{cost}</strong>
          </p>
          {rangeError && parseClockTime(end) !== 0 && <p className="text-sm text-amber-800">{rangeError}</p>}
          {result && !result.ok && (
            <p role="alert" className="alert-error">
              {result.error}{" "}
              {result.upgrade && (
                <Link to="/pricing" className="font-semibold underline">
                  Upgrade Plan
                </Link>
              )}
              {result.signIn && (
                <Link
                  to={`/signin?${new URLSearchParams({ redirectTo: location.pathname + location.search })}`}
                  className="font-semibold underline"
                >
                  Sign in
                </Link>
              )}
            </p>
          )}
          {succeeded && (
            <p role="status" className="alert-success">
              {result.message}
            </p>
          )}
          <div className="flex justify-end gap-2">
            <button type="button" onClick={onClose} className="btn-secondary">
              Cancel
            </button>
            <button type="submit" className="btn-primary" disabled={disabled}>
              {busy ? "Processing..." : "Confirm & Create Clip"}
            </button>
          </div>
        </fetcher.Form>
      </div>
    </div>
  );
}
