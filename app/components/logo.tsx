import { Link } from "@remix-run/react";

export function ScissorsIcon({ className = "h-6 w-6" }: { className?: string }) {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} className={className} aria-hidden="true">
      <circle cx="6" cy="6" r="3" />
      <circle cx="6" cy="18" r="3" />
      <path d="M20 4 8.12 15.88M14.47 14.48 20 20M8.12 8.12 12 12" strokeLinecap="round" />
    </svg>
  );
}

export function Logo() {
  return (
    <Link
      to="/"
      className="flex items-center gap-2 text-lg font-bold tracking-tight text-slate-900"
      aria-label="ClipCut home"
    >
      <span className="grid h-8 w-8 place-items-center rounded-lg bg-brand-600 text-white">
        <ScissorsIcon className="h-5 w-5" />
      </span>
      <span className="max-[419px]:sr-only">ClipCut</span>
    </Link>
  );
}
