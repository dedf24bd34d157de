import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { isRouteErrorResponse, useLoaderData, useRouteError } from "@remix-run/react";
import { AdminErrorBoundary } from "~/components/admin/error";
import { NotFound } from "~/components/error-boundary";
import { PlaceholderPage } from "~/components/admin/placeholder";
import { overviewTotals } from "~/db/admin.server";
import { getDb } from "~/db/client.server";
import { searchOnly } from "~/domain/admin";
import { PLACEHOLDERS, type PlaceholderName } from "~/domain/admin-placeholders";
import { formatRevenue } from "~/domain/plans";
import { requireAdmin } from "~/services/auth.server";

/** The display-only screens (Promotions, Payouts, Earnings, Reviews): one route, their texts in the domain. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  const name = params.screen ?? "";
  if (!Object.hasOwn(PLACEHOLDERS, name)) throw data("Page not found.", { status: 404 });
  const screen = name as PlaceholderName;
  const { q } = searchOnly.parse(new URL(request.url).searchParams);
  // Earnings shows the one real figure there is: the revenue taken through Stripe.
  const values: Record<string, string> =
    screen === "earnings"
      ? { "Total Revenue": formatRevenue((await overviewTotals(getDb(context.cloudflare.env.DB))).revenueCents) }
      : {};
  return { screen, q, values };
}

export default function AdminPlaceholderScreen() {
  const { screen, q, values } = useLoaderData<typeof loader>();
  return <PlaceholderPage name={screen} q={q} values={values} />;
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, error }) => [
  {
    title: `${
      loaded
        ? PLACEHOLDERS[loaded.screen].crumb
        : isRouteErrorResponse(error) && error.status === 404
          ? "Page Not Found"
          : "Something went wrong"
    } | Admin | ClipCut`,
  },
];

// A screen name this route does not know is the site's 404 page (inside the admin layout); other failures keep
// the admin error box.
export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  return <AdminErrorBoundary />;
}
