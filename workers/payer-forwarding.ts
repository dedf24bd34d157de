import type { ChargeOutcome, HoldOutcome, LedgerResult, LedgerState, Payer, RelayedEvent } from "../app/domain/ledger";
import { MAX_PAYER_HOLDS } from "../app/domain/ledger";
import type { LedgerClient } from "../app/services/ledger.server";

export interface MemberSide {
  /** The member's committed state, read when needed (a commit replaces it): its payer and its holds there. */
  state: () => LedgerState;
  payerLedger: (payerId: string) => Pick<LedgerClient, "forwarded">;
  /** To the member's own sockets, as a decision of the member's ledger (the clip count follows a new clip). */
  publish: (event: RelayedEvent) => Promise<unknown>;
  /** The payer said the member's view of it is out of date: the member's ledger corrects its state. */
  stale: (from: string, payer: Payer | null) => void;
}

type ClipOp = "charge" | "reserve" | "capture" | "release";
const isClipOp = (name: string): name is ClipOp =>
  name === "charge" || name === "reserve" || name === "capture" || name === "release";

/**
 * A team member's clip operation, decided by the payer's ledger: charge and reserve while the team works (keys
 * namespaced by member, the member named as creator), capture and release of a hold the member opened there, even
 * after they left. The answer comes back here and the member's own sockets hear the new clip and the team balance.
 * Null: the member's own ledger decides it (no payer, a suspended team, a hold of its own).
 */
export async function forwardToPayer(
  side: MemberSide,
  memberId: string,
  name: string,
  input: unknown,
): Promise<LedgerResult<unknown> | null> {
  if (!isClipOp(name)) return null;
  if (name === "charge" || name === "reserve") {
    const payer = side.state().payer;
    if (!payer?.active) return null;
    const request = input as { key: string };
    const teamInput = { ...request, key: `team:${memberId}:${request.key}`, creatorId: memberId };
    const result = await side.payerLedger(payer.ownerId).forwarded(memberId, name, teamInput as never);
    // The owner's ledger is the authority: a suspension or a removal this ledger was not told of.
    if (!result.ok && result.reason === "team_suspended") {
      side.stale(payer.ownerId, { ...payer, active: false });
      return null;
    }
    if (!result.ok && result.reason === "not_a_member") {
      side.stale(payer.ownerId, null);
      return null;
    }
    await heard(side, payer.ownerId, name, result);
    return result;
  }
  const { holdId } = input as { holdId: string };
  const payerId = side.state().payerHolds.get(holdId);
  if (!payerId) return null;
  const result = await side.payerLedger(payerId).forwarded(memberId, name, { holdId });
  await heard(side, payerId, name, result);
  return result;
}

/** What the member's sockets hear of a forwarded answer (a replay was heard the first time). */
async function heard(side: MemberSide, payerId: string, name: ClipOp, result: LedgerResult<unknown>): Promise<void> {
  if (!result.ok || result.replayed) return;
  if (name === "reserve") {
    const { hold } = result.value as HoldOutcome;
    const holds = side.state().payerHolds;
    holds.set(hold.id, payerId);
    if (holds.size > MAX_PAYER_HOLDS) holds.delete(holds.keys().next().value as string);
  }
  if (name === "charge" || name === "capture")
    await side.publish({ type: "clip", data: { clip: (result.value as ChargeOutcome).clip, paidByTeam: true } });
  await side.publish({ type: "teamCredits", data: (result.value as { credits: ChargeOutcome["credits"] }).credits });
}
