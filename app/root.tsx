import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/cloudflare";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteLoaderData,
  type ShouldRevalidateFunction,
} from "@remix-run/react";
import type { ReactNode } from "react";
import { GeneralErrorBoundary } from "./components/error-boundary";
import { NavigationSplash } from "./components/splash";
import { getOptionalUser } from "./services/auth.server";
import stylesheet from "./tailwind.css?url";
import { useNonce } from "./utils/nonce";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await getOptionalUser(request, context);
  return {
    user: user && { id: user.id, fullName: user.fullName, email: user.email, role: user.role, plan: user.plan },
  };
}

/** Realtime revalidations (same URL, no form) never need the session user again. */
export const shouldRevalidate: ShouldRevalidateFunction = (args) =>
  !args.formMethod && args.currentUrl.href === args.nextUrl.href ? false : args.defaultShouldRevalidate;

export type RootData = Awaited<ReturnType<typeof loader>>;

/** The signed-in user as the root loader saw it, or null. */
export function useOptionalUser() {
  return useRouteLoaderData<typeof loader>("root")?.user ?? null;
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="en" className="h-full">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#2146ee" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-full flex-col">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
        >
          Skip to content
        </a>
        {children}
        <NavigationSplash />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  return (
    <main id="main" className="flex-1">
      <GeneralErrorBoundary />
    </main>
  );
}
