import { useRevalidator } from "@remix-run/react";
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import type { Clip, Credits } from "~/domain/api";
import { serverMessageSchema, type ServerMessage } from "~/domain/realtime";
import { connectRealtime } from "~/domain/realtime-client";
import { sendToExtension } from "~/utils/extension-bridge";

export interface LiveState {
  credits: Credits;
  plan: string;
  pendingPlan: string | null;
  connection: "connecting" | "live" | "reconnecting";
  /** A team member's shared balance (the Pro owner's) when it changed since the page loaded; null until then. */
  teamCredits: Credits | null;
  /** Clips created since the page loaded, newest first, straight from the messages (no reload). */
  newClips: Clip[];
  /** The extension id in use: the stored one, replaced live when an admin changes it. */
  extensionId?: string;
}

const LiveContext = createContext<LiveState | null>(null);

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
 * have missed something. Sockets close on every deploy, so reconnecting is normal, not an error.
 */
export function RealtimeProvider({
  initial,
  extensionId,
  children,
}: {
  initial: Omit<LiveState, "connection" | "newClips" | "teamCredits">;
  extensionId: string;
  children: ReactNode;
}) {
  const [state, setState] = useState<LiveState>({
    ...initial,
    connection: "connecting",
    newClips: [],
    teamCredits: null,
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

  // Fresh loader data (after a navigation or revalidation) is the newest truth too.
  useEffect(() => {
    setState((s) => ({
      ...s,
      credits: initial.credits,
      plan: initial.plan,
      pendingPlan: initial.pendingPlan,
      teamCredits: null,
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
      // Signed out or banned elsewhere: the page stays as it is; the next navigation signs in again.
      onStatus: (status) =>
        setState((s) => ({
          ...s,
          connection: status === "live" ? "live" : s.connection === "live" ? "reconnecting" : s.connection,
        })),
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
          const { clip } = message.data;
          setState((s) => ({ ...s, newClips: [clip, ...s.newClips.filter((c) => c.id !== clip.id)].slice(0, 50) }));
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
    return () => connection.close();
  }, []);

  return <LiveContext.Provider value={{ ...state, extensionId: liveExtensionId }}>{children}</LiveContext.Provider>;
}

/** A small status dot: live updates on, or reconnecting. */
export function ConnectionBadge() {
  const { connection } = useLive();
  const live = connection === "live";
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
