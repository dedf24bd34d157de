import { useNavigation, useRevalidator } from "@remix-run/react";
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import type { Clip, Credits } from "~/domain/api";
import { REALTIME_FAILED_MESSAGE, serverMessageSchema, type ServerMessage } from "~/domain/realtime";
import { connectRealtime, type RealtimeConnection } from "~/domain/realtime-client";
import { signinWithNotice } from "~/domain/signin-messages";
import { sendToExtension } from "~/utils/extension-bridge";

export interface LiveState {
  credits: Credits;
  plan: string;
  pendingPlan: string | null;
  /** "failed": the client gave up after its retries (the badge offers a retry). */
  connection: "connecting" | "live" | "reconnecting" | "failed";
  /** A team member's shared balance (the Pro owner's) when it changed since the page loaded; null until then. */
  teamCredits: Credits | null;
  /** Clips created since the page loaded, newest first, straight from the messages (no reload). */
  newClips: Clip[];
  /** A team member's clips paid by the team since the layout loaded (added to the team card's usage). */
  teamUsage: { clips: number; credits: number };
  /** The extension id in use: the stored one, replaced live when an admin changes it. */
  extensionId?: string;
  /** After "failed": try again with a fresh set of attempts. */
  retry?: () => void;
}

const LiveContext = createContext<LiveState | null>(null);
const NO_TEAM_USAGE = { clips: 0, credits: 0 };

/** The user's live credits and plan, kept current over /realtime. */
export function useLive(): LiveState {
  const state = useContext(LiveContext);
  if (!state) throw new Error("useLive outside RealtimeProvider");
  return state;
}

/** A revalidation with no navigation and no form: in the signed-in area only the realtime provider asks for one. */
export function isRealtimeRevalidation(args: { currentUrl: URL; nextUrl: URL; formMethod?: string }): boolean {
  return !args.formMethod && args.currentUrl.href === args.nextUrl.href;
}

/** The loader's clips with the ones that arrived over the socket since, newest first, without duplicates. */
export function withNewClips(loaded: Clip[], live: Clip[], limit: number): Clip[] {
  const seen = new Set<string>();
  return [...live, ...loaded].filter((c) => !seen.has(c.id) && seen.add(c.id)).slice(0, limit);
}

/**
 * Holds one WebSocket to the user's ledger for the signed-in area (through `connectRealtime`): applies credit, plan
 * and clip messages at once from the message itself (no loader runs), and revalidates only when a reconnect may
 * have missed something. Sockets close on every deploy, so reconnecting is normal, not an error. When the session
 * ended elsewhere (4001) the page goes to /signin with the fixed "session ended" notice; when the retries give up,
 * the badge says "Real-time connection failed." instead of reconnecting forever.
 */
export function RealtimeProvider({
  initial,
  extensionId,
  children,
}: {
  initial: Omit<LiveState, "connection" | "newClips" | "teamCredits" | "teamUsage">;
  extensionId: string;
  children: ReactNode;
}) {
  const [state, setState] = useState<LiveState>({
    ...initial,
    connection: "connecting",
    newClips: [],
    teamCredits: null,
    teamUsage: NO_TEAM_USAGE,
  });
  // The admin may change the extension id while the page is open: a "settings" message switches to the new one.
  const [liveExtensionId, setLiveExtensionId] = useState(extensionId);
  const extensionIdRef = useRef(liveExtensionId);
  extensionIdRef.current = liveExtensionId;
  useEffect(() => setLiveExtensionId(extensionId), [extensionId]);
  // The plan the page last knew (the loader's at first): a snapshot with another one is news for the extension.
  const planRef = useRef(initial.plan);
  planRef.current = state.plan;
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  // A navigation under way (signing out in this tab) lands where it should: the session's end is no news to it.
  const navigation = useNavigation();
  const navigating = useRef(false);
  navigating.current = navigation.state !== "idle";
  const connectionRef = useRef<RealtimeConnection | null>(null);

  // Fresh loader data (after a navigation or revalidation) is the newest truth too.
  useEffect(() => {
    setState((s) => ({
      ...s,
      credits: initial.credits,
      plan: initial.plan,
      pendingPlan: initial.pendingPlan,
      teamCredits: null,
      teamUsage: NO_TEAM_USAGE,
    }));
  }, [initial.credits, initial.plan, initial.pendingPlan]);

  useEffect(() => {
    const connection = connectRealtime<ServerMessage>({
      url: `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/realtime`,
      sequenced: true,
      parse: (json) => {
        const parsed = serverMessageSchema.safeParse(json);
        return parsed.success ? parsed.data : null;
      },
      onStatus: (status) => {
        if (status === "ended") {
          // Signed out everywhere, a password change or a ban: a reload of the page would only redirect anyway.
          if (!navigating.current)
            window.location.assign(signinWithNotice("session_ended", location.pathname + location.search));
          return;
        }
        setState((s) => ({
          ...s,
          connection:
            status === "live" || status === "failed"
              ? status
              : s.connection === "connecting"
                ? "connecting"
                : "reconnecting",
        }));
      },
      onGap: () => revalidate.current(),
      onMessage: (message) => {
        if (message.type === "snapshot") {
          // A plan that changed while this page was away (a checkout in this tab, a reconnect) reaches the
          // extension too, as a live plan message does.
          if (message.data.plan.plan !== planRef.current)
            void sendToExtension(extensionIdRef.current, { action: "userPlanUpdated", plan: message.data.plan.plan });
          return setState((s) => ({
            ...s,
            credits: message.data.credits,
            plan: message.data.plan.plan,
            pendingPlan: message.data.plan.pendingPlan,
            connection: "live",
          }));
        }
        if (message.type === "credits") setState((s) => ({ ...s, credits: message.data }));
        if (message.type === "teamCredits") setState((s) => ({ ...s, teamCredits: message.data }));
        if (message.type === "plan") {
          setState((s) => ({ ...s, plan: message.data.plan, pendingPlan: message.data.pendingPlan }));
          void sendToExtension(extensionIdRef.current, { action: "userPlanUpdated", plan: message.data.plan });
          // The page's own data may depend on the plan (period end on /billing/plan): rare, so the page reloads it.
          revalidate.current();
        }
        if (message.type === "clip") {
          const { clip, paidByTeam } = message.data;
          setState((s) => ({
            ...s,
            newClips: [clip, ...s.newClips.filter((c) => c.id !== clip.id)].slice(0, 50),
            teamUsage:
              paidByTeam && !s.newClips.some((c) => c.id === clip.id)
                ? { clips: s.teamUsage.clips + 1, credits: s.teamUsage.credits + clip.cost }
                : s.teamUsage,
          }));
        }
        if (message.type === "clipRemoved") {
          const { clipId } = message.data;
          setState((s) => ({ ...s, newClips: s.newClips.filter((c) => c.id !== clipId) }));
          // Lists loaded by the page hold it too.
          revalidate.current();
        }
        if (message.type === "settings") {
          setLiveExtensionId(message.data.extensionId);
          // Loaders that read the id (the extension hand-off) pick up the new one too.
          revalidate.current();
        }
      },
    });
    connectionRef.current = connection;
    return () => connection.close();
  }, []);

  const retry = () => connectionRef.current?.retry();
  return (
    <LiveContext.Provider value={{ ...state, extensionId: liveExtensionId, retry }}>{children}</LiveContext.Provider>
  );
}

/** A small status dot: live updates on, or reconnecting; after the retries gave up, the spec's text and a retry. */
/** After the retries gave up: the spec's text (K3) and a retry, for the user area's badge and the admin header. */
export function RealtimeFailed({ onRetry, ...data }: { onRetry?: () => void } & Record<`data-${string}`, string>) {
  return (
    <span className="inline-flex items-center gap-1.5 text-xs text-red-700" role="alert" {...data}>
      <span aria-hidden="true" className="h-2 w-2 flex-none rounded-full bg-red-600" />
      {REALTIME_FAILED_MESSAGE}
      <button type="button" className="font-semibold underline" onClick={onRetry}>
        Retry
      </button>
    </span>
  );
}

export function ConnectionBadge() {
  const { connection, retry } = useLive();
  const live = connection === "live";
  if (connection === "failed") return <RealtimeFailed onRetry={retry} data-connection={connection} />;
  return (
    <span
      className="inline-flex items-center gap-1.5 text-xs text-slate-600"
      role="status"
      data-connection={connection}
    >
      <span aria-hidden="true" className={`h-2 w-2 rounded-full ${live ? "bg-emerald-500" : "bg-amber-500"}`} />
      {live ? "Live" : connection === "connecting" ? "Connecting…" : "Reconnecting…"}
    </span>
  );
}
