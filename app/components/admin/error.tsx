import { isRouteErrorResponse, useRouteError } from "@remix-run/react";

/** The admin screens' failure state: "An Error Occurred" and the message, never a stack trace. */
export function AdminErrorBoundary() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? typeof error.data === "string"
      ? error.data
      : `${error.status} ${error.statusText}`
    : "Something went wrong while loading this page. Please try again.";
  return (
    <div role="alert" className="rounded-xl border border-red-200 bg-red-50 p-6">
      <h1 className="text-lg font-semibold text-red-800">An Error Occurred</h1>
      <p className="mt-2 text-sm text-red-800">{message}</p>
    </div>
  );
}
