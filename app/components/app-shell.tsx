import { Form, NavLink } from "@remix-run/react";
import type { ReactNode } from "react";
import { Logo } from "./logo";
import { ConnectionBadge } from "./realtime";

const NAV = [
  { to: "/dashboard", label: "Home" },
  { to: "/clips", label: "Clips" },
  { to: "/credits", label: "Credits" },
  { to: "/analytics", label: "Analytics" },
  { to: "/team", label: "Team" },
  { to: "/billing/plan", label: "Plan & Pricing" },
  { to: "/billing", label: "Billing", end: true },
  { to: "/account", label: "My Account" },
] as const;

function NavItems({ onSignOut }: { onSignOut: () => void }) {
  return (
    <ul className="space-y-1">
      {NAV.map((item) => (
        <li key={item.to}>
          <NavLink
            to={item.to}
            end={"end" in item ? item.end : false}
            className={({ isActive }) =>
              `block rounded-lg px-3 py-2 text-sm font-medium ${
                isActive ? "bg-brand-50 text-brand-700" : "text-slate-700 hover:bg-slate-100"
              }`
            }
          >
            {item.label}
          </NavLink>
        </li>
      ))}
      <li>
        <Form method="post" action="/signout" onSubmit={onSignOut}>
          <button
            type="submit"
            className="block w-full rounded-lg px-3 py-2 text-left text-sm font-medium text-slate-700 hover:bg-slate-100"
          >
            Sign Out
          </button>
        </Form>
      </li>
    </ul>
  );
}

/** The signed-in area: a sidebar on desktop, a disclosure menu on small screens. */
export function AppShell({
  children,
  onSignOut,
  userName,
}: {
  children: ReactNode;
  onSignOut: () => void;
  userName: string;
}) {
  return (
    <div className="flex min-h-full flex-1 flex-col bg-slate-50 lg:flex-row">
      <aside className="hidden w-64 flex-none border-r border-slate-200 bg-white p-5 lg:block">
        <Logo />
        <p className="mt-6 truncate px-3 text-xs font-semibold uppercase tracking-wide text-slate-500">{userName}</p>
        <p className="px-3">
          <ConnectionBadge />
        </p>
        <nav aria-label="Account" className="mt-2">
          <NavItems onSignOut={onSignOut} />
        </nav>
      </aside>
      <header className="relative border-b border-slate-200 bg-white px-4 py-3 lg:hidden">
        {/* The logo and the live status sit beside the menu's summary, not in it: a summary holds no links or buttons. */}
        <div className="flex items-center justify-between gap-3">
          <Logo />
          <details className="group">
            <summary className="btn-ghost cursor-pointer list-none px-2 py-1">
              Menu<span className="sr-only"> (account navigation)</span>
            </summary>
            <nav
              aria-label="Account"
              className="absolute inset-x-0 top-full z-30 border-b border-slate-200 bg-white px-4 py-3 shadow-sm"
            >
              <NavItems onSignOut={onSignOut} />
            </nav>
          </details>
        </div>
        {/* The live status on small screens too: "Real-time connection failed." must not hide in the sidebar. */}
        <p className="mt-1" data-testid="mobile-connection">
          <ConnectionBadge />
        </p>
      </header>
      <main id="main" className="flex-1 px-4 py-8 sm:px-8">
        <div className="mx-auto max-w-5xl">{children}</div>
      </main>
    </div>
  );
}
