import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { isRouteErrorResponse, Outlet } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { SiteFooter } from "~/components/site-footer";
import { SiteHeader } from "~/components/site-header";
import { useOptionalUser } from "~/root";
import { publicCacheHeaders } from "~/services/cache.server";

export async function loader({ request }: LoaderFunctionArgs) {
  return data(null, { headers: publicCacheHeaders(request) });
}

// Child routes without their own `headers` inherit these.
export const headers: HeadersFunction = ({ loaderHeaders }) => ({
  "Cache-Control": loaderHeaders.get("Cache-Control") ?? "private, no-store",
  Vary: "Cookie",
});

/** Used only when a child failed and this layout's boundary renders (pages set their own titles otherwise). */
export const meta: MetaFunction = ({ error }) =>
  error
    ? [
        {
          title:
            isRouteErrorResponse(error) && error.status === 404
              ? "Page Not Found | ClipCut"
              : "Something went wrong | ClipCut",
        },
      ]
    : [];

export default function PublicLayout() {
  const user = useOptionalUser();
  return (
    <>
      <SiteHeader signedIn={user !== null} />
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <SiteFooter />
    </>
  );
}

// The root loader ran beside the failed child, so its session user is known here too (also without JavaScript).
export function ErrorBoundary() {
  const user = useOptionalUser();
  return (
    <>
      <SiteHeader signedIn={user !== null} />
      <main id="main" className="flex-1">
        <GeneralErrorBoundary />
      </main>
      <SiteFooter />
    </>
  );
}
