import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { ErrorBox } from "~/components/error-box";
import { MESSAGES } from "~/domain/messages";
import { requireUser } from "~/services/auth.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  return null;
}

export default function NoClipId() {
  return (
    <div className="space-y-4">
      <ErrorBox error={MESSAGES.noClipId} />
      <Link to="/dashboard" className="btn-secondary">
        Back to dashboard
      </Link>
    </div>
  );
}
