import type { FeatureIcon } from "~/domain/features";

type IconProps = { className?: string };

const stroke = {
  fill: "none",
  stroke: "currentColor",
  strokeWidth: 1.8,
  strokeLinecap: "round",
  strokeLinejoin: "round",
  "aria-hidden": true,
} as const;

const FEATURE_PATHS: Record<FeatureIcon, JSX.Element> = {
  handles: (
    <>
      <path d="M3 12h18" />
      <rect x="6" y="7" width="3" height="10" rx="1" />
      <rect x="15" y="7" width="3" height="10" rx="1" />
    </>
  ),
  preview: (
    <>
      <rect x="3" y="5" width="18" height="14" rx="2" />
      <path d="m10 9 5 3-5 3z" />
    </>
  ),
  quality: (
    <>
      <rect x="3" y="5" width="18" height="14" rx="2" />
      <path d="M7 15V9l2.5 3L12 9v6M15 9v6h2a2 2 0 0 0 2-2v-2a2 2 0 0 0-2-2z" />
    </>
  ),
  formats: (
    <>
      <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" />
      <path d="M14 3v5h5M9 13h6M9 17h4" />
    </>
  ),
  batch: (
    <>
      <rect x="7" y="3" width="14" height="10" rx="2" />
      <path d="M4 7v9a2 2 0 0 0 2 2h11M3 21h12" />
    </>
  ),
  presets: (
    <>
      <path d="M4 6h10M18 6h2M4 12h4M12 12h8M4 18h12M20 18h0" />
      <circle cx="16" cy="6" r="2" />
      <circle cx="10" cy="12" r="2" />
      <circle cx="18" cy="18" r="2" />
    </>
  ),
  analytics: <path d="M4 20V10M10 20V4M16 20v-7M22 20H2" />,
};

export function FeatureIconSvg({ icon, className = "h-6 w-6" }: IconProps & { icon: FeatureIcon }) {
  return (
    <svg viewBox="0 0 24 24" className={className} {...stroke}>
      {FEATURE_PATHS[icon]}
    </svg>
  );
}

export function CheckIcon({ className = "h-5 w-5" }: IconProps) {
  return (
    <svg viewBox="0 0 24 24" className={className} {...stroke} strokeWidth={2.2}>
      <path d="m5 12 5 5 9-10" />
    </svg>
  );
}

export function CrossIcon({ className = "h-5 w-5" }: IconProps) {
  return (
    <svg viewBox="0 0 24 24" className={className} {...stroke} strokeWidth={2.2}>
      <path d="M6 6l12 12M18 6 6 18" />
    </svg>
  );
}

export function ArrowRightIcon({ className = "h-4 w-4" }: IconProps) {
  return (
    <svg viewBox="0 0 24 24" className={className} {...stroke} strokeWidth={2}>
      <path d="M5 12h14M13 6l6 6-6 6" />
    </svg>
  );
}

export function StarIcon({ className = "h-4 w-4", filled }: IconProps & { filled: boolean }) {
  return (
    <svg viewBox="0 0 20 20" className={className} aria-hidden="true" fill={filled ? "currentColor" : "none"}>
      <path
        stroke="currentColor"
        strokeWidth={1.4}
        strokeLinejoin="round"
        d="m10 1.8 2.5 5.2 5.7.8-4.1 4 1 5.6L10 14.7l-5.1 2.7 1-5.6-4.1-4 5.7-.8z"
      />
    </svg>
  );
}

export type BrowserName = "Chrome" | "Firefox" | "Edge" | "Safari";

/** Simple, recognisable browser marks drawn in brand-neutral shapes. */
export function BrowserIcon({ browser, className = "h-8 w-8" }: IconProps & { browser: BrowserName }) {
  switch (browser) {
    case "Chrome":
      return (
        <svg viewBox="0 0 32 32" className={className} aria-hidden="true">
          <path d="M16 16 3 8.5A15 15 0 0 1 29 8.5z" fill="#db4437" />
          <path d="M16 16 29 8.5A15 15 0 0 1 16 31z" fill="#f4b400" />
          <path d="M16 16 16 31A15 15 0 0 1 3 8.5z" fill="#0f9d58" />
          <circle cx="16" cy="16" r="7" fill="#fff" />
          <circle cx="16" cy="16" r="5.2" fill="#4285f4" />
        </svg>
      );
    case "Firefox":
      return (
        <svg viewBox="0 0 32 32" className={className} aria-hidden="true">
          <circle cx="16" cy="16" r="15" fill="#ff7139" />
          <path
            d="M16 5a11 11 0 1 0 11 11c0-2-1-4-2-5 0 3-2 5-5 5a5 5 0 0 1-5-5c0-3 2-4 3-6-1 0-1.5 0-2 0z"
            fill="#9059ff"
          />
          <circle cx="17" cy="15" r="4" fill="#ffbd4f" />
        </svg>
      );
    case "Edge":
      return (
        <svg viewBox="0 0 32 32" className={className} aria-hidden="true">
          <circle cx="16" cy="16" r="15" fill="#0078d4" />
          <path
            d="M6 17c0-6 5-10 10.5-10S27 11 27 15.5c0 3-2.5 4.5-5.5 4.5H12c.5 3 3 5 7 5 2 0 4-.5 5.5-1.5-2 3-5 4.5-8.5 4.5C10.5 28 6 23.5 6 17z"
            fill="#35c1f1"
          />
          <path d="M12 16.5c0-2.5 2-4.5 4.5-4.5s4.5 2 4.5 4.5z" fill="#0078d4" />
        </svg>
      );
    case "Safari":
      return (
        <svg viewBox="0 0 32 32" className={className} aria-hidden="true">
          <circle cx="16" cy="16" r="15" fill="#1e88e5" />
          <circle cx="16" cy="16" r="12" fill="#e3f2fd" />
          <path d="m16 16 6-8-8 6z" fill="#e53935" />
          <path d="m16 16-6 8 8-6z" fill="#90a4ae" />
        </svg>
      );
  }
}
