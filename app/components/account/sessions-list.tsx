import { useFetcher } from "@remix-run/react";

interface Session {
  id: string;
  device: string;
  ip: string | null;
  signedInAt: string;
  lastActiveAt: string | null;
  current: boolean;
}

const when = (iso: string) =>
  new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(new Date(iso)) +
  " UTC";

/** "Where you're signed in": each session with its own Sign out, and one button for every other session. */
export function SessionsList({ sessions }: { sessions: Session[] }) {
  const others = sessions.filter((s) => !s.current);
  const all = useFetcher({ key: "sessions-others" });
  return (
    <section className="card" aria-labelledby="sessions-title">
      <h2 id="sessions-title" className="text-lg font-semibold">
        Where you&apos;re signed in
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Sessions end after 30 days, or after 7 days without use. Signing a session out also disconnects the extension it
        connected.
      </p>
      <ul className="mt-4 divide-y divide-slate-100">
        {sessions.map((session) => (
          <SessionRow key={session.id} session={session} />
        ))}
      </ul>
      {others.length > 0 && (
        <all.Form method="post" action="/account/sessions" className="mt-4">
          <input type="hidden" name="intent" value="others" />
          <button type="submit" className="btn-secondary" disabled={all.state !== "idle"}>
            {all.state !== "idle" ? "Signing out..." : "Sign out everywhere else"}
          </button>
        </all.Form>
      )}
    </section>
  );
}

function SessionRow({ session }: { session: Session }) {
  const fetcher = useFetcher({ key: `session-${session.id}` });
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-3">
      <div>
        <p className="font-medium">
          {session.device}
          {session.current && (
            <span className="ml-2 rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-700">
              This browser
            </span>
          )}
        </p>
        <p className="text-sm text-slate-600">
          Signed in {when(session.signedInAt)}
          {session.lastActiveAt && ` · last active ${when(session.lastActiveAt)}`}
          {session.ip && ` · IP ${session.ip}`}
        </p>
      </div>
      {!session.current && (
        <fetcher.Form method="post" action="/account/sessions">
          <input type="hidden" name="intent" value="revoke" />
          <input type="hidden" name="sessionId" value={session.id} />
          <button
            type="submit"
            className="btn-secondary"
            disabled={fetcher.state !== "idle"}
            aria-label={`Sign out ${session.device}, signed in ${when(session.signedInAt)}`}
          >
            Sign out
          </button>
        </fetcher.Form>
      )}
    </li>
  );
}
