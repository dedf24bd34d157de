import { useLive } from "~/components/realtime";

/** The signed-in creator's available credits on /clip, pushed by the ledger as the extension spends them. */
export function LiveCredits() {
  const live = useLive();
  return (
    <p className="text-sm text-slate-600">
      Available credits:{" "}
      <span className="font-semibold text-slate-900" data-testid="clip-available-credits">
        {live.credits.available}
      </span>
    </p>
  );
}
