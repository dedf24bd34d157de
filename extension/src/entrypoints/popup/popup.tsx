import { useCallback, useEffect, useMemo, useState, type FormEvent } from "react";
import { JobProgress, isActive } from "../../components/job-progress";
import { SITE_ORIGIN } from "../../lib/config";
import type { CompanionTools, Failure, Job, Status } from "../../lib/messages";
import { applyJobEvent } from "../../lib/job-feed";
import { ask } from "../../lib/send";
import { useJobFeed } from "../../lib/use-job-feed";
import { SiteAccess } from "./site-access";
import { useLiveAccount } from "../../lib/use-live-credits";

/** The toolbar popup: account and live credits, the companion's state and pairing, recent jobs. */
export function Popup() {
  const [status, setStatus] = useState<Status | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const refresh = useCallback(async () => {
    const result = await ask({ type: "status" });
    if (result.ok) setStatus(result.value);
    setFailure(result.ok ? null : result.failure);
  }, []);
  useEffect(() => void refresh(), [refresh]);

  return (
    <main className="space-y-4 p-4">
      <header className="flex items-center justify-between">
        <h1 className="text-lg font-bold text-slate-900">ClipCut</h1>
        <a
          href={`${SITE_ORIGIN}/dashboard`}
          target="_blank"
          rel="noreferrer"
          className="text-sm font-medium text-brand-700 underline"
        >
          Dashboard
        </a>
      </header>
      <SiteAccess />
      {failure && (
        <p role="alert" className="alert-error">
          {failure.message}
        </p>
      )}
      {!status ? (
        !failure && (
          <p role="status" className="text-sm text-slate-600">
            Loading…
          </p>
        )
      ) : (
        <>
          <AccountSection status={status} />
          <CompanionSection status={status} onChange={refresh} />
          {status.companion.state === "paired" && <JobsSection />}
        </>
      )}
    </main>
  );
}

/** The token for the live-credits socket, asked for separately: status never carries it. */
function useRealtimeToken(signedIn: boolean) {
  const [token, setToken] = useState<string | null>(null);
  useEffect(() => {
    if (!signedIn) return setToken(null);
    void ask({ type: "realtimeToken" }).then((result) => setToken(result.ok ? result.value : null));
  }, [signedIn]);
  return token;
}

function AccountSection({ status }: { status: Status }) {
  const initial = useMemo(
    () => (status.account ? { credits: status.account.credits, plan: status.account.user.plan } : null),
    [status.account],
  );
  const apiKey = useRealtimeToken(status.signedIn);
  const live = useLiveAccount(apiKey, initial, status.account?.team != null);
  if (!status.account || !live)
    return (
      <section aria-labelledby="account-heading" className="space-y-2">
        <h2 id="account-heading" className="sr-only">
          Account
        </h2>
        <p className="text-sm text-slate-700">Sign in on the website to create clips with your credits.</p>
        <a href={`${SITE_ORIGIN}/signin`} target="_blank" rel="noreferrer" className="btn-primary w-full">
          Sign in to ClipCut
        </a>
      </section>
    );
  return (
    <section aria-labelledby="account-heading" className="rounded-xl bg-slate-50 p-3">
      <h2 id="account-heading" className="sr-only">
        Account
      </h2>
      <p className="font-semibold text-slate-900">{status.account.user.fullName}</p>
      <dl className="mt-1 grid grid-cols-2 gap-2 text-sm">
        <div>
          <dt className="text-slate-600">Plan</dt>
          <dd className="font-semibold text-slate-900" data-testid="popup-plan">
            {live.plan === "Plugin" ? "Free" : live.plan}
          </dd>
        </div>
        <div>
          <dt className="text-slate-600">Available credits</dt>
          <dd className="font-semibold text-slate-900" data-testid="popup-credits">
            {live.credits.available}
          </dd>
        </div>
      </dl>
    </section>
  );
}

function CompanionSection({ status, onChange }: { status: Status; onChange: () => Promise<void> }) {
  const [token, setToken] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const companion = status.companion;

  async function pair(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    const result = await ask({ type: "pair", token });
    setBusy(false);
    if (!result.ok) return setError(result.failure.message);
    setError(null);
    setToken("");
    await onChange();
  }

  return (
    <section aria-labelledby="companion-heading" className="space-y-2">
      <h2 id="companion-heading" className="text-sm font-semibold text-slate-900">
        Companion
      </h2>
      {companion.state === "unavailable" && (
        <div className="space-y-2 text-sm text-slate-700" data-testid="companion-unavailable">
          <p role="status">
            <WithCode text={companion.message} />
          </p>
          {companion.kind === "not_installed" && (
            <p>
              It needs Node.js 20+ and FFmpeg.{" "}
              <a
                href={`${SITE_ORIGIN}/download`}
                target="_blank"
                rel="noreferrer"
                className="font-medium text-brand-700 underline"
              >
                See the Download page
              </a>{" "}
              for the steps, and for browsers installed as Snap or Flatpak.
            </p>
          )}
          <button type="button" className="btn-secondary" onClick={() => void onChange()}>
            Check again
          </button>
        </div>
      )}
      {companion.state === "unpaired" && (
        <form onSubmit={pair} className="space-y-2">
          <p className="text-sm text-slate-700">
            A companion started with <code className="font-mono">serve</code> is running. Paste the pairing token it
            printed when it started.
          </p>
          <label htmlFor="pairing-token" className="label">
            Pairing token
          </label>
          <input
            id="pairing-token"
            className="input font-mono"
            value={token}
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => setToken(event.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "pairing-error" : undefined}
          />
          {error && (
            <p id="pairing-error" role="alert" className="text-sm text-red-800">
              {error}
            </p>
          )}
          <button type="submit" className="btn-primary w-full" disabled={busy || token.trim() === ""}>
            Pair
          </button>
        </form>
      )}
      {companion.state === "paired" && (
        <div className="space-y-2">
          <p className="text-sm text-slate-700" data-testid="companion-paired">
            {companion.via === "native" ? "Companion" : "Paired with companion"} {companion.version}
            {companion.via === "native" ? " is ready (your browser starts it)" : ""}. Clips are saved in{" "}
            <code className="break-all font-mono text-xs">{companion.outputDir}</code>.
          </p>
          {companion.tools && <MissingTools tools={companion.tools} />}
        </div>
      )}
    </section>
  );
}

/** Backticked parts of a message (commands to run) as code. */
function WithCode({ text }: { text: string }) {
  return (
    <>
      {text.split("`").map((part, i) =>
        i % 2 === 1 ? (
          <code key={i} className="rounded bg-slate-100 px-1 font-mono">
            {part}
          </code>
        ) : (
          part
        ),
      )}
    </>
  );
}

/** What the companion cannot do without FFmpeg or yt-dlp, and how to add them. */
function MissingTools({ tools }: { tools: CompanionTools }) {
  const notes: string[] = [];
  if (!tools.ffmpeg || !tools.ffprobe)
    notes.push(
      "FFmpeg is missing, so no clip can be cut. Install it (e.g. `sudo apt install ffmpeg`, `brew install ffmpeg` or `winget install Gyan.FFmpeg`), then try again.",
    );
  if (!tools.ytDlp)
    notes.push(
      "yt-dlp is missing, so YouTube pages cannot be read. Install it (e.g. `pipx install yt-dlp`, `brew install yt-dlp` or `winget install yt-dlp.yt-dlp`).",
    );
  if (tools.ytDlpWarning) notes.push(tools.ytDlpWarning);
  if (notes.length === 0) return null;
  return (
    <ul role="alert" className="alert-error list-disc space-y-1 pl-5 text-sm" data-testid="companion-tools">
      {notes.map((note) => (
        <li key={note}>
          <WithCode text={note} />
        </li>
      ))}
    </ul>
  );
}

function JobsSection() {
  const [jobs, setJobs] = useState<Job[]>([]);
  // The list when the feed connects (on opening, once) and whenever it restarts; in between the companion pushes
  // every change.
  const load = useCallback(() => {
    void ask({ type: "jobs" }).then((result) => result.ok && setJobs(result.value.slice(-5).reverse()));
  }, []);
  useJobFeed(
    true,
    (event) =>
      setJobs((list) =>
        event.type === "job" && !list.some((job) => job.id === event.job.id)
          ? [event.job, ...list].slice(0, 5)
          : applyJobEvent(list, event),
      ),
    load,
  );

  return (
    <section aria-labelledby="jobs-heading" className="space-y-2">
      <h2 id="jobs-heading" className="text-sm font-semibold text-slate-900">
        Recent clips
      </h2>
      {jobs.length === 0 ? (
        <p className="text-sm text-slate-600">No clips yet. Open a YouTube video and press Clip.</p>
      ) : (
        <ul className="space-y-3">
          {jobs.map((job) => (
            <li key={job.id} className="space-y-1">
              <JobProgress job={job} label={job.request.name ?? "Clip"} />
              {isActive(job) && (
                <button
                  type="button"
                  className="btn-ghost px-2 py-1 text-xs"
                  onClick={() => void ask({ type: "cancelJob", id: job.id })}
                >
                  Cancel {job.request.name ?? "clip"}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
