import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { AdminErrorBoundary } from "~/components/admin/error";
import { PlaceholderPage } from "~/components/admin/placeholder";
import { requireAdmin } from "~/services/auth.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  return { q: (new URL(request.url).searchParams.get("q") ?? "").slice(0, 200) };
}

export default function AdminPromotions() {
  const { q } = useLoaderData<typeof loader>();
  return <PlaceholderPage name="promotions" q={q} />;
}

export const meta: MetaFunction = () => [{ title: "Promotions | Admin | ClipCut" }];

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
