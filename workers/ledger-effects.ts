import type { Credits } from "../app/domain/api";
import type { AdminTopic, Effect, LedgerEvent, Payer, RelayedEvent } from "../app/domain/ledger";
import type { StoredPlan } from "../app/domain/plans";

/** What a UserLedger can do after a commit; the runner below is the only caller, so tests can inject their own. */
export interface EffectPorts {
  publish(event: LedgerEvent): void;
  /** From the team owner's ledger, to this member's open sockets (none open: nothing is sent). */
  relay(event: RelayedEvent): void;
  /** To a team member's own sockets, through their ledger (a clip of theirs added or removed on the payer's). */
  toMember(memberId: string, event: LedgerEvent): void;
  /** The team's balance, to these members (the owner's ledger holds them in memory). */
  teamCredits(credits: Credits, memberIds: string[]): void;
  /** The team works again or is suspended: each member's ledger learns it before the answer; e-mails follow. */
  teamStatus(active: boolean, plan: StoredPlan, memberIds: string[]): Promise<void>;
  /** A member's ledger learns its payer (a join, a removal) before the answer, so their next call goes right. */
  payer(memberId: string, payer: Payer | null): Promise<void>;
  adminTopic(topic: AdminTopic): void;
  wake(at: number): Promise<void>;
  endAccess(reason: string): void;
  forgetTokens(): void;
}

/**
 * Runs a committed decision's effects, in order. A failing effect does not stop the others: the writes are
 * committed already, the caller gets its answer, and the scheduled safety net covers a missed wake.
 */
export async function runEffects(effects: readonly Effect[], ports: EffectPorts): Promise<void> {
  for (const effect of effects) {
    try {
      switch (effect.type) {
        case "publish":
          ports.publish(effect.event);
          break;
        case "relay":
          ports.relay(effect.event);
          break;
        case "toMember":
          ports.toMember(effect.memberId, effect.event);
          break;
        case "teamCredits":
          ports.teamCredits(effect.credits, effect.memberIds);
          break;
        case "teamStatus":
          await ports.teamStatus(effect.active, effect.plan, effect.memberIds);
          break;
        case "payer":
          await ports.payer(effect.memberId, effect.payer);
          break;
        case "adminTopic":
          ports.adminTopic(effect.topic);
          break;
        case "wake":
          await ports.wake(effect.at);
          break;
        case "endAccess":
          ports.endAccess(effect.reason);
          break;
        case "forgetTokens":
          ports.forgetTokens();
          break;
      }
    } catch (error) {
      console.error(
        JSON.stringify({ level: "error", msg: "ledger effect failed", effect: effect.type, error: String(error) }),
      );
    }
  }
}
