import { NavLink } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useNonce } from "~/utils/nonce";
import { AdminIcon } from "./icons";

export const ADMIN_NAV = [
  { to: "/admin", label: "Overviews", icon: "overviews", end: true },
  { to: "/admin/calendars", label: "Calendars", icon: "calendars" },
  { to: "/admin/clips", label: "Clips", icon: "clips" },
  { to: "/admin/analytics", label: "Analytics", icon: "analytics" },
  { to: "/admin/promotions", label: "Promotions", icon: "promotions" },
  { to: "/admin/payouts", label: "Payouts", icon: "payouts" },
  { to: "/admin/users", label: "Users", icon: "users" },
  { to: "/admin/inbox", label: "Inbox", icon: "inbox" },
  { to: "/admin/earnings", label: "Earnings", icon: "earnings" },
  { to: "/admin/reviews", label: "Reviews", icon: "reviews" },
  { to: "/admin/reports", label: "Reports", icon: "reports" },
  { to: "/admin/settings", label: "Settings", icon: "settings" },
  { to: "/admin/ledger", label: "Ledger health", icon: "ledger" },
  { to: "/admin/audit", label: "Audit log", icon: "audit" },
] as const;

const STORAGE_KEY = "sidebarCollapsed";
// Runs before the sidebar paints: the stored state applies with no flash of the other width.
const APPLY_STORED_STATE = `try{if(localStorage.getItem("${STORAGE_KEY}")==="true")document.documentElement.dataset.sidebar="collapsed"}catch(e){}`;

const collapsedHidden = "[html[data-sidebar=collapsed]_&]:hidden";

export function NavList({ onNavigate }: { onNavigate?: () => void }) {
  return (
    <ul className="space-y-1">
      {ADMIN_NAV.map((item) => (
        <li key={item.to}>
          <NavLink
            to={item.to}
            end={"end" in item ? item.end : false}
            prefetch="intent"
            onClick={onNavigate}
            title={item.label}
            className={({ isActive }) =>
              `flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium ${
                isActive ? "bg-brand-50 text-brand-700" : "text-slate-700 hover:bg-slate-100"
              }`
            }
          >
            <AdminIcon name={item.icon} className="h-5 w-5 shrink-0" />
            <span className={collapsedHidden}>{item.label}</span>
          </NavLink>
        </li>
      ))}
    </ul>
  );
}

/** Desktop sidebar; its collapsed state lives in localStorage under "sidebarCollapsed". */
export function AdminSidebar() {
  const nonce = useNonce();
  const [collapsed, setCollapsed] = useState(false);
  useEffect(() => setCollapsed(document.documentElement.dataset.sidebar === "collapsed"), []);
  const toggle = () => {
    const next = !collapsed;
    setCollapsed(next);
    if (next) document.documentElement.dataset.sidebar = "collapsed";
    else delete document.documentElement.dataset.sidebar;
    try {
      localStorage.setItem(STORAGE_KEY, String(next));
    } catch {
      // storage blocked: the state lasts for this page only
    }
  };
  return (
    <aside
      className="hidden w-60 shrink-0 flex-col border-r border-slate-200 bg-white p-3 md:flex [html[data-sidebar=collapsed]_&]:w-[4.25rem]"
      data-testid="admin-sidebar"
    >
      <script nonce={nonce} dangerouslySetInnerHTML={{ __html: APPLY_STORED_STATE }} suppressHydrationWarning />
      <nav aria-label="Admin" className="flex-1">
        <NavList />
      </nav>
      <button
        type="button"
        onClick={toggle}
        aria-pressed={collapsed}
        aria-label={collapsed ? "Expand sidebar" : "Collapse sidebar"}
        className="mt-4 flex items-center gap-2 rounded-lg px-3 py-2 text-sm text-slate-600 hover:bg-slate-100"
      >
        <AdminIcon name={collapsed ? "expand" : "collapse"} />
        <span className={collapsedHidden}>Collapse</span>
      </button>
    </aside>
  );
}
