import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { StatusBadge } from "~/components/admin/badge";
import { AdminErrorBoundary } from "~/components/admin/error";
import { formatDateTime, PageHeader, Panel } from "~/components/admin/ui";
import { getDb } from "~/db/client.server";
import { findContactMessage } from "~/db/inbox.server";
import { INBOX_MESSAGES, INBOX_STATUS_LABELS, inboxActionSchema, REPLY_MAX } from "~/domain/inbox";
import { requireAdmin } from "~/services/auth.server";
import { actOnContactMessage } from "~/services/contact.server";
import { clientIp } from "~/services/rate-limit.server";
import { readForm } from "~/utils/forms";

const messageId = z.string().uuid();
const NOTICES = ["replied", "closed", "reopened"] as const;

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  const id = messageId.safeParse(params.messageId);
  const message = id.success ? await findContactMessage(getDb(context.cloudflare.env.DB), id.data) : null;
  if (!message) throw data(INBOX_MESSAGES.notFound, { status: 404 });
  const code = z.enum(NOTICES).safeParse(new URL(request.url).searchParams.get("notice"));
  const notice = !code.success
    ? null
    : code.data === "replied"
      ? INBOX_MESSAGES.replied(message.email)
      : INBOX_MESSAGES[code.data];
  return {
    notice,
    message: {
      id: message.id,
      name: message.name,
      email: message.email,
      topic: message.topic,
      message: message.message,
      status: message.status,
      createdAt: message.createdAt.toISOString(),
    },
    replies: message.replies.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
  };
}

/** Reply (e-mailed to the sender, the message marked answered), close or reopen; then back here with a notice. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const form = await readForm(request);
  const id = messageId.safeParse(params.messageId);
  if (!id.success) return data({ error: INBOX_MESSAGES.notFound, body: "" }, { status: 404 });
  const parsed = inboxActionSchema.safeParse(form);
  // The typed reply comes back with a refusal: a page without JavaScript would otherwise lose it.
  const body = (form.body ?? "").slice(0, REPLY_MAX);
  if (!parsed.success)
    return data({ error: parsed.error.issues[0]?.message ?? "Invalid request.", body }, { status: 400 });
  const env = context.cloudflare.env;
  const ctx = { env, db: getDb(env.DB), adminId: admin.id, ip: clientIp(request) };
  const result = await actOnContactMessage(ctx, id.data, parsed.data);
  if (!result.ok) return data({ error: result.message, body }, { status: result.status });
  return redirect(`/admin/inbox/${id.data}?notice=${result.notice}`);
}

export default function AdminInboxMessage() {
  const { notice, message, replies } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const sending = busy && navigation.formData?.get("intent") === "reply";
  const closed = message.status === "closed";
  return (
    <div>
      <PageHeader title={`Message from ${message.name}`} crumb="Inbox" />
      <p className="mb-4 text-sm">
        <Link to="/admin/inbox" className="font-semibold text-brand-700 underline">
          Back to the inbox
        </Link>
      </p>
      {notice && (
        <p role="status" className="alert-success mb-4">
          {notice}
        </p>
      )}
      {answer?.error && (
        <p role="alert" className="alert-error mb-4">
          {answer.error}
        </p>
      )}
      <div className="grid gap-4 lg:grid-cols-3">
        <div className="space-y-4 lg:col-span-2">
          <Panel title="Message">
            <dl className="mb-4 grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
              <dt className="font-medium text-slate-600">From</dt>
              <dd className="min-w-0 break-words">
                {message.name} &lt;
                <a href={`mailto:${message.email}`} className="text-brand-700 underline">
                  {message.email}
                </a>
                &gt;
              </dd>
              <dt className="font-medium text-slate-600">Topic</dt>
              <dd>{message.topic}</dd>
              <dt className="font-medium text-slate-600">Received</dt>
              <dd>{formatDateTime(message.createdAt)} UTC</dd>
              <dt className="font-medium text-slate-600">Status</dt>
              <dd data-testid="inbox-status">
                <StatusBadge value={INBOX_STATUS_LABELS[message.status]} />
              </dd>
            </dl>
            <p className="whitespace-pre-wrap break-words rounded-lg bg-slate-50 p-4 text-sm leading-relaxed">
              {message.message}
            </p>
          </Panel>
          <Panel title={`Replies (${replies.length})`}>
            {replies.length === 0 ? (
              <p className="text-sm text-slate-600">No reply sent yet.</p>
            ) : (
              <ol className="space-y-4">
                {replies.map((r) => (
                  <li key={r.id} className="rounded-lg border border-slate-200 p-4" data-testid="inbox-reply">
                    <p className="text-xs text-slate-600">
                      {r.adminEmail ?? "A former admin"} · {formatDateTime(r.createdAt)} UTC
                    </p>
                    <p className="mt-2 whitespace-pre-wrap break-words text-sm">{r.body}</p>
                  </li>
                ))}
              </ol>
            )}
          </Panel>
        </div>
        <div className="space-y-4">
          <Panel title="Reply">
            <Form method="post" className="space-y-3">
              <input type="hidden" name="intent" value="reply" />
              <div>
                <label htmlFor="reply-body" className="label">
                  Your reply to {message.email}
                </label>
                <textarea
                  id="reply-body"
                  name="body"
                  rows={8}
                  required
                  maxLength={REPLY_MAX}
                  // A new key after a sent reply empties the field; a refused one keeps what was typed.
                  key={replies.length}
                  defaultValue={answer?.body ?? ""}
                  className="input"
                  aria-describedby="reply-help"
                />
                <p id="reply-help" className="mt-1 text-xs text-slate-600">
                  E-mailed to the sender with their message quoted; the message is then marked answered.
                </p>
              </div>
              <button type="submit" className="btn-primary w-full sm:w-auto" disabled={busy}>
                {sending ? "Sending..." : "Send reply"}
              </button>
            </Form>
          </Panel>
          <Panel title="Status">
            <Form method="post" className="flex flex-wrap items-center gap-3">
              <input type="hidden" name="intent" value={closed ? "reopen" : "close"} />
              <p className="text-sm text-slate-600">
                {closed ? "Closed: nothing more to do." : "Close it when nothing more is needed."}
              </p>
              <button type="submit" className="btn-secondary" disabled={busy}>
                {closed ? "Reopen" : "Close message"}
              </button>
            </Form>
          </Panel>
        </div>
      </div>
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded }) => [
  { title: `${loaded ? `Message from ${loaded.message.name}` : "Message"} | Inbox | Admin | ClipCut` },
];

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
