import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { requireUser } from "~/services/auth.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  return { firstName: user.fullName.split(/\s+/)[0] ?? "", credits: user.credits, plan: user.plan };
}

export default function Dashboard() {
  const { firstName, credits } = useLoaderData<typeof loader>();
  return (
    <div>
      <h1 className="text-2xl font-bold">Welcome, {firstName}</h1>
      <p className="mt-2 text-slate-600">You have {credits} credits.</p>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Dashboard | ClipCut" }];
