import { Link, NavLink } from "@remix-run/react";
import { Logo } from "./logo";

const navClass = ({ isActive }: { isActive: boolean }) =>
  `whitespace-nowrap rounded-md px-2 py-2 text-sm font-medium sm:px-3 ${isActive ? "text-brand-700" : "text-slate-600 hover:text-slate-900"}`;

export function SiteHeader({ signedIn }: { signedIn: boolean }) {
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200/70 bg-white/90 backdrop-blur">
      <div className="container-page flex h-16 items-center justify-between gap-4">
        <Logo />
        <nav aria-label="Main" className="flex items-center gap-0.5 sm:gap-2">
          <NavLink to="/pricing" className={navClass}>
            Pricing
          </NavLink>
          {signedIn ? (
            <Link to="/dashboard" className="btn-primary">
              Go to Dashboard
            </Link>
          ) : (
            <>
              <NavLink to="/signin" className={navClass}>
                Sign in
              </NavLink>
              <Link to="/download" className="btn-primary whitespace-nowrap px-3 sm:px-4">
                Try for Free
              </Link>
            </>
          )}
        </nav>
      </div>
    </header>
  );
}
