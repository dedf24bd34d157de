import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";
import type { ReactNode } from "react";

type StatusHandler = (error: { status: number; data: unknown }) => ReactNode;

export function NotFound() {
  return (
    <section className="container-page flex min-h-[50vh] flex-col items-center justify-center py-20 text-center">
      <p className="text-sm font-semibold text-brand-600">404</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">Page Not Found</h1>
      <p className="mt-4 text-slate-600">Sorry, we couldn’t find the page you’re looking for.</p>
      <Link to="/" className="btn-primary mt-8">
        Go back home
      </Link>
    </section>
  );
}

/** The one error boundary: per-status messages, never a stack trace. */
export function GeneralErrorBoundary({ statusHandlers = {} }: { statusHandlers?: Record<number, StatusHandler> }) {
  const error = useRouteError();
  if (isRouteErrorResponse(error)) {
    const handler = statusHandlers[error.status];
    if (handler) return <>{handler(error)}</>;
    if (error.status === 404) return <NotFound />;
    return (
      <ErrorMessage
        title={`${error.status} ${error.statusText || "Error"}`}
        message={typeof error.data === "string" ? error.data : "An unexpected error occurred."}
      />
    );
  }
  return <ErrorMessage title="Something went wrong" message="An unexpected error occurred. Please try again." />;
}

function ErrorMessage({ title, message }: { title: string; message: string }) {
  return (
    <section
      className="container-page flex min-h-[40vh] flex-col items-center justify-center py-20 text-center"
      role="alert"
    >
      <h1 className="text-2xl font-bold">{title}</h1>
      <p className="mt-3 text-slate-600">{message}</p>
      <Link to="/" className="btn-secondary mt-6">
        Go back home
      </Link>
    </section>
  );
}
