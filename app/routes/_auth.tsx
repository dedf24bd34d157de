import { Outlet } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";

/** Auth screens: no header or footer. */
export default function AuthLayout() {
  return <Outlet />;
}

export function ErrorBoundary() {
  return (
    <main id="main" className="flex-1">
      <GeneralErrorBoundary />
    </main>
  );
}
