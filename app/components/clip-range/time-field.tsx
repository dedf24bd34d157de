import { useEffect, useState } from "react";
import { formatTimecode, parseTimecode } from "../../domain/time";

/**
 * A time typed as ss, mm:ss or hh:mm:ss. It commits on Enter or when focus leaves; a value that does not parse,
 * or that `accept` refuses, puts the last valid time back.
 */
export function TimeField({
  id,
  label,
  value,
  disabled,
  accept,
  onCommit,
}: {
  id: string;
  label: string;
  value: number;
  disabled?: boolean;
  accept: (seconds: number) => boolean;
  onCommit: (seconds: number) => void;
}) {
  const [draft, setDraft] = useState(() => formatTimecode(value));
  const [problem, setProblem] = useState<string | null>(null);

  // Follow the handles when they move.
  useEffect(() => setDraft(formatTimecode(value)), [value]);

  function commit() {
    const seconds = parseTimecode(draft);
    if (seconds !== null && accept(seconds)) {
      setProblem(null);
      onCommit(seconds);
      setDraft(formatTimecode(seconds));
      return;
    }
    if (draft.trim() !== formatTimecode(value)) {
      setProblem(
        seconds === null
          ? "Enter a time as ss, mm:ss or hh:mm:ss. The last valid time was restored."
          : "That time is outside the clip or the video. The last valid time was restored.",
      );
    }
    setDraft(formatTimecode(value));
  }

  return (
    <div>
      <label htmlFor={id} className="label">
        {label}
      </label>
      <input
        id={id}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        spellCheck={false}
        value={draft}
        disabled={disabled}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === "Enter") {
            event.preventDefault();
            commit();
          }
        }}
        aria-describedby={`${id}-hint`}
        className="input font-mono tabular-nums"
      />
      <p
        id={`${id}-hint`}
        className={`mt-1.5 text-xs ${problem ? "text-amber-800" : "text-slate-600"}`}
        aria-live="polite"
      >
        {problem ?? "ss, mm:ss or hh:mm:ss"}
      </p>
    </div>
  );
}
