import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { z } from "zod";
import { CreateClipLink, CreateClipModal } from "~/components/admin/create-clip-modal";
import { AdminErrorBoundary } from "~/components/admin/error";
import { ListTable, Pagination, SearchForm, Td } from "~/components/list";
import { formatDate, PageHeader } from "~/components/admin/ui";
import { listClips } from "~/db/admin.server";
import { optionsOfRow } from "~/db/clips.server";
import { getDb } from "~/db/client.server";
import { ADMIN_MESSAGES, ADMIN_PAGE_SIZE, clipList } from "~/domain/admin";
import { describeCaptions } from "~/domain/clip-request";
import { describeCrop } from "~/domain/crop";
import { FORMAT_LABELS, FORMATS, type Format } from "~/domain/media";
import { answerCreateClipForm, createdClipMessage } from "~/services/admin-clip-form.server";
import { deleteClipAsAdmin } from "~/services/admin-clips.server";
import { requireAdmin } from "~/services/auth.server";
import { clientIp } from "~/services/rate-limit.server";
import { readForm } from "~/utils/forms";

const refundedSchema = z.coerce.number().int().min(0).max(1_000_000).catch(0);
const deletedNotice = (refunded: number) =>
  refunded ? `Clip deleted. ${refunded} credits were refunded.` : "Clip deleted.";

const deleteSchema = z.object({
  intent: z.literal("delete"),
  clipId: z.string().min(1).max(64),
  refund: z.enum(["on"]).optional(),
});

/** View opens only web links: a stored javascript: or data: URL must never become a clickable link. */
function httpLink(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : null;
  } catch {
    return null;
  }
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const params = new URL(request.url).searchParams;
  const query = clipList.parse(params);
  const list = await listClips(getDb(context.cloudflare.env.DB), query.q, query.page);
  return {
    query,
    notice: params.get("notice") === "deleted" ? deletedNotice(refundedSchema.parse(params.get("refunded"))) : null,
    // The Create Clip dialog lives in the URL (`?modal=create`): the link and the form work without JavaScript.
    creating: params.get("modal") === "create",
    created: await createdClipMessage(context, admin.id, params.get("created")),
    // A fresh key per rendered form: a double submit of the same form charges once.
    formKey: crypto.randomUUID(),
    ...list,
    rows: list.rows.map(({ aspect, cropPosition, captionsTrack, captionsMode, captionsSrt, ...c }) => {
      const options = optionsOfRow({ aspect, cropPosition, captionsTrack, captionsMode, captionsSrt });
      return {
        ...c,
        createdAt: c.createdAt.toISOString(),
        viewUrl: httpLink(c.videoUrl),
        // What the file is: format, quality, the aspect it was cropped to and its captions.
        made: [
          (FORMATS as readonly string[]).includes(c.format) ? FORMAT_LABELS[c.format as Format] : c.format,
          c.quality,
          describeCrop(options.aspect, options.cropPosition),
          `captions: ${describeCaptions(options.captions)}`,
        ].join(" · "),
      };
    }),
  };
}

/**
 * Create the admin's own clip (`intent=create`, the Create Clip dialog), or delete a clip (with "Refund" ticked, its
 * cost goes back to whoever paid for it): `deleteClipAsAdmin`.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  if (form.intent === "create") return answerCreateClipForm(request, context, form);
  const admin = await requireAdmin(request, context);
  const parsed = deleteSchema.safeParse(form);
  if (!parsed.success)
    return data({ intent: "delete" as const, error: ADMIN_MESSAGES.deleteClipFailed }, { status: 400 });
  const env = context.cloudflare.env;
  const ctx = { env, db: getDb(env.DB), adminId: admin.id, ip: clientIp(request) };
  const result = await deleteClipAsAdmin(ctx, { clipId: parsed.data.clipId, refund: Boolean(parsed.data.refund) });
  if (!result.ok)
    return data(
      { intent: "delete" as const, error: [ADMIN_MESSAGES.deleteClipFailed, result.message].filter(Boolean).join(" ") },
      { status: result.status, headers: result.headers },
    );
  const { refunded } = result;
  // Back to the same list with the notice in the URL: an answer held only in the action's data vanished when the live
  // feed refreshed the list a second later.
  const query = clipList.parse(new URL(request.url).searchParams);
  return redirect(clipList.href("/admin/clips", query, { notice: "deleted", refunded }));
}

function DeleteClip({ clip }: { clip: { id: string; name: string; cost: number } }) {
  const [refund, setRefund] = useState(false);
  const navigation = useNavigation();
  const busy = navigation.formData?.get("clipId") === clip.id;
  return (
    <Form
      method="post"
      preventScrollReset
      className="flex items-center gap-2"
      onSubmit={(event) => {
        if (!window.confirm(ADMIN_MESSAGES.deleteClipConfirm)) event.preventDefault();
      }}
    >
      <input type="hidden" name="intent" value="delete" />
      <input type="hidden" name="clipId" value={clip.id} />
      <label className="flex items-center gap-1 text-xs text-slate-700">
        <input type="checkbox" name="refund" checked={refund} onChange={(e) => setRefund(e.target.checked)} />
        Refund {clip.cost} credits
      </label>
      <button
        type="submit"
        className="text-sm font-semibold text-red-700 hover:underline disabled:opacity-50"
        disabled={busy}
        aria-label={`Delete ${clip.name}`}
      >
        Delete
      </button>
    </Form>
  );
}

export default function AdminClips() {
  const { query, notice, rows, total, page, pages, creating, created, formKey } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const createAnswer = result?.intent === "create" ? result : null;
  const href = (p: number) => clipList.href("/admin/clips", query, { page: p });
  return (
    <div>
      <PageHeader title="Clip Management" crumb="Clips" actions={<CreateClipLink />} />
      {notice && (
        <p role="status" className="alert-success mb-4">
          {notice}
        </p>
      )}
      {result?.error && !createAnswer && (
        <p role="alert" className="alert-error mb-4">
          {result.error}
        </p>
      )}
      <SearchForm
        id="clip-search"
        label="Search clips"
        placeholder="Search by clip name, user name, or email..."
        value={query.q}
      />
      <ListTable
        caption="Clips"
        columns={["Clip Name", "Created By", "Date", "Cost", "Actions"]}
        isEmpty={rows.length === 0}
        empty="No clips found."
      >
        {rows.map((c) => (
          <tr key={c.id} data-testid="clip-row">
            <Td>
              <span className="block font-medium">{c.name}</span>
              <span className="block text-xs text-slate-600">{c.made}</span>
            </Td>
            <Td>
              <span className="block">{c.fullName ?? "N/A"}</span>
              <span className="block text-xs text-slate-600">{c.email ?? ""}</span>
            </Td>
            <Td>{formatDate(c.createdAt)}</Td>
            <Td className="tabular-nums">{c.cost}</Td>
            <Td>
              <div className="flex items-center gap-4">
                {c.viewUrl ? (
                  <a
                    href={c.viewUrl}
                    target="_blank"
                    rel="noopener noreferrer"
                    className="text-sm font-semibold text-brand-700 hover:underline"
                    aria-label={`View ${c.name} (opens in a new tab)`}
                  >
                    View
                  </a>
                ) : (
                  <span className="text-sm text-slate-500">No link</span>
                )}
                <DeleteClip clip={c} />
              </div>
            </Td>
          </tr>
        ))}
      </ListTable>
      <Pagination page={page} pages={pages} total={total} pageSize={ADMIN_PAGE_SIZE} href={href} />
      {creating && <CreateClipModal formKey={formKey} created={created} answer={createAnswer} />}
      <p className="mt-2 text-xs text-slate-600">
        Clips you create are charged to your own balance.{" "}
        <Link to="/admin/reports" className="underline">
          Usage reports
        </Link>
      </p>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Clips | Admin | ClipCut" }];

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
