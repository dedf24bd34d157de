/** Outline icons (24×24, stroke) for the admin sidebar; decorative, the label carries the meaning. */
const PATHS: Record<string, string> = {
  overviews: "M3 12l9-9 9 9M5 10v10h5v-6h4v6h5V10",
  calendars: "M4 6h16v14H4zM4 10h16M8 3v4M16 3v4",
  clips: "M6 6a3 3 0 1 0 0 .01M6 18a3 3 0 1 0 0 .01M20 4 8.1 15.9M14.5 14.5 20 20M8.1 8.1 12 12",
  analytics: "M4 20V10M10 20V4M16 20v-7M22 20H2",
  promotions: "M3 11l15-7v16L3 13zM7 13v5h3",
  payouts: "M3 7h18v10H3zM12 9.5a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5",
  users: "M16 19v-1a4 4 0 0 0-8 0v1M12 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6M20 19v-1a3 3 0 0 0-2-2.8M4 19v-1a3 3 0 0 1 2-2.8",
  earnings: "M12 3v18M16 7H10a3 3 0 0 0 0 6h4a3 3 0 0 1 0 6H8",
  reviews: "M12 3l2.7 5.6 6.3.9-4.5 4.4 1 6.1L12 17l-5.5 3 1-6.1L3 9.5l6.3-.9z",
  reports: "M7 3h7l5 5v13H7zM14 3v5h5M10 13h6M10 17h6",
  settings:
    "M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6M19 12a7 7 0 0 0-.1-1.2l2-1.6-2-3.4-2.4 1a7 7 0 0 0-2-1.2L14 3h-4l-.5 2.6a7 7 0 0 0-2 1.2l-2.4-1-2 3.4 2 1.6a7 7 0 0 0 0 2.4l-2 1.6 2 3.4 2.4-1a7 7 0 0 0 2 1.2L10 21h4l.5-2.6a7 7 0 0 0 2-1.2l2.4 1 2-3.4-2-1.6c.1-.4.1-.8.1-1.2",
  ledger: "M4 5h16M4 12h16M4 19h16M8 3v18",
  audit: "M9 5h10M9 12h10M9 19h10M4 5h.01M4 12h.01M4 19h.01",
  inbox: "M3 13l3-8h12l3 8v6H3zM3 13h5l1 3h6l1-3h5",
  bell: "M6 17V11a6 6 0 0 1 12 0v6l2 2H4zM10 21h4",
  search: "M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14M21 21l-5-5",
  collapse: "M15 6l-6 6 6 6",
  expand: "M9 6l6 6-6 6",
};

export function AdminIcon({ name, className = "h-5 w-5" }: { name: string; className?: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      className={className}
      aria-hidden="true"
    >
      <path d={PATHS[name] ?? ""} />
    </svg>
  );
}
