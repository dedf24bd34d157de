import type { MetaFunction } from "@remix-run/cloudflare";
import { NotFound } from "~/components/error-boundary";

// Any unknown path: a real 404 status, rendered by the public layout's error boundary.
export async function loader() {
  throw new Response("Not Found", { status: 404 });
}

export const meta: MetaFunction = () => [{ title: "Page Not Found | ClipCut" }];

export default function CatchAll() {
  return <NotFound />;
}
