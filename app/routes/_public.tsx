import { data, type HeadersFunction, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Outlet } from "@remix-run/react";
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

export function ErrorBoundary() {
  return (
    <>
      <SiteHeader signedIn={false} />
      <main id="main" className="flex-1">
        <GeneralErrorBoundary />
      </main>
      <SiteFooter />
    </>
  );
}
