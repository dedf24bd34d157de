import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { requireAdmin } from "~/services/auth.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  return null;
}

export default function AdminOverview() {
  return <h1 className="text-2xl font-bold">Overviews</h1>;
}

export const meta: MetaFunction = () => [{ title: "Admin | ClipCut" }];
