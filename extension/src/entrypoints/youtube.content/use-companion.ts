import { useEffect, useState } from "react";
import type { CompanionState } from "../../lib/messages";
import { ask } from "../../lib/send";

/**
 * The companion's state, asked on its own: the browser may have to start it, and the panel is usable meanwhile.
 */
export function useCompanion(signal: AbortSignal) {
  const [companion, setCompanion] = useState<CompanionState | null>(null);
  useEffect(() => {
    void ask({ type: "companion" }).then((result) => !signal.aborted && setCompanion(result.ok ? result.value : null));
  }, [signal]);
  return companion;
}
