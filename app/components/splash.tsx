import { useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { ScissorsIcon } from "./logo";

/** The animated scissors, shown only when a navigation takes longer than ~300 ms. */
export function NavigationSplash() {
  const navigation = useNavigation();
  const [visible, setVisible] = useState(false);
  const busy = navigation.state === "loading" && navigation.formMethod === undefined;

  useEffect(() => {
    if (!busy) {
      setVisible(false);
      return;
    }
    const timer = setTimeout(() => setVisible(true), 300);
    return () => clearTimeout(timer);
  }, [busy]);

  if (!visible) return null;
  return (
    <div
      className="fixed inset-0 z-50 grid place-items-center bg-white/70 backdrop-blur-sm"
      role="status"
      aria-live="polite"
    >
      <div className="flex flex-col items-center gap-3 text-brand-600">
        <ScissorsIcon className="h-12 w-12 animate-snip" />
        <span className="text-sm font-medium text-slate-600">Loading…</span>
      </div>
    </div>
  );
}
