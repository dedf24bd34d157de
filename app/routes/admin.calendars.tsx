import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { GrowthChart } from "~/components/admin/charts";
import { CreateClipLink, CreateClipModal } from "~/components/admin/create-clip-modal";
import { StatusBadge } from "~/components/admin/badge";
import { AdminErrorBoundary } from "~/components/admin/error";
import { ListTable, Td } from "~/components/list";
import { formatDate, formatTime, PageHeader, Panel, StatCard, StatGrid } from "~/components/admin/ui";
import { clipsOnDay, dayStats, monthActivity } from "~/db/admin.server";
import { getDb } from "~/db/client.server";
import { calendarCells, isoDay, isoDaySchema, MONTH_NAMES } from "~/domain/admin";
import { formatCents } from "~/domain/plans";
import { answerCreateClipForm, createdClipMessage } from "~/services/admin-clip-form.server";
import { requireAdmin } from "~/services/auth.server";
import { readForm } from "~/utils/forms";

const querySchema = z.object({ day: isoDaySchema.optional().catch(undefined) });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const today = isoDay(Date.now());
  const params = new URL(request.url).searchParams;
  const { day: requested } = querySchema.parse({ day: params.get("day") ?? undefined });
  // Future days cannot be selected.
  const day = requested && !Number.isNaN(Date.parse(requested)) && requested <= today ? requested : today;
  const dayStart = Date.parse(`${day}T00:00:00Z`);
  const year = Number(day.slice(0, 4));
  const month = Number(day.slice(5, 7)) - 1;
  const db = getDb(context.cloudflare.env.DB);
  // Daily stats errors fall back to zeros; the rest of the page still shows.
  const [activity, stats, clips] = await Promise.all([
    monthActivity(db, year, month),
    dayStats(db, dayStart).catch(() => ({ clips: 0, creditsUsed: 0, activeUsers: 0, revenueCents: 0 })),
    clipsOnDay(db, dayStart),
  ]);
  const cells = calendarCells(year, month);
  const daysInMonth = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const chart = Array.from({ length: daysInMonth }, (_, i) => {
    const key = `${day.slice(0, 8)}${String(i + 1).padStart(2, "0")}`;
    return {
      label: String(i + 1),
      "New Users": activity.users.get(key) ?? 0,
      "Clips Created": activity.clips.get(key) ?? 0,
    };
  });
  return {
    // The Create Clip dialog lives in the URL (`?modal=create`): the link and the form work without JavaScript.
    creating: params.get("modal") === "create",
    created: await createdClipMessage(context, admin.id, params.get("created")),
    formKey: crypto.randomUUID(),
    day,
    today,
    monthLabel: `${MONTH_NAMES[month]} ${year}`,
    prevMonth: isoDay(Date.UTC(year, month - 1, 1)),
    nextMonth: isoDay(Date.UTC(year, month + 1, 1)),
    cells: cells.map((c) => ({ ...c, hasClips: (activity.clips.get(c.day) ?? 0) > 0 })),
    chart,
    hasActivity: chart.some((d) => d["New Users"] > 0 || d["Clips Created"] > 0),
    stats,
    clips: clips.map((c) => ({
      id: c.id,
      name: c.name,
      fullName: c.fullName,
      cost: c.cost,
      status: c.status,
      createdAt: c.createdAt.toISOString(),
    })),
  };
}

/** The Create Clip dialog's post (the only form here that posts). */
export async function action({ request, context }: ActionFunctionArgs) {
  return answerCreateClipForm(request, context, { ...(await readForm(request)), intent: "create" });
}

export default function AdminCalendars() {
  const data = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() ?? null;
  const navigation = useNavigation();
  const location = useLocation();
  // Another day's clips are on their way (opening or closing the dialog keeps the day).
  const dayOf = (search: string) => new URLSearchParams(search).get("day");
  const loadingClips =
    navigation.state === "loading" &&
    navigation.location.pathname === "/admin/calendars" &&
    dayOf(navigation.location.search) !== dayOf(location.search);
  const nextDisabled = data.nextMonth > data.today;
  return (
    <div>
      <PageHeader
        title="Calendars"
        actions={
          <>
            <Link to="/admin/reports" className="btn-secondary">
              Generate Reports
            </Link>
            <CreateClipLink />
          </>
        }
      />
      <StatGrid>
        <StatCard label="Clips on Selected Day" value={data.stats.clips} testId="day-clips" />
        <StatCard label="Credits Used This Day" value={data.stats.creditsUsed} />
        <StatCard label="Active Users This Day" value={data.stats.activeUsers} />
        <StatCard label="Revenue This Day" value={formatCents(data.stats.revenueCents)} />
      </StatGrid>
      <div className="grid gap-6 xl:grid-cols-3">
        <div className="min-w-0 xl:col-span-2">
          <Panel title={`Daily Activity for ${data.monthLabel}`}>
            {data.hasActivity ? (
              <GrowthChart data={data.chart} caption={`New users and clips per day, ${data.monthLabel}`} stack />
            ) : (
              <p className="py-16 text-center text-slate-600">No activity for this period.</p>
            )}
          </Panel>
        </div>
        <Panel>
          <div className="mb-3 flex items-center justify-between">
            <Link
              to={`?day=${data.prevMonth}`}
              preventScrollReset
              className="btn-ghost px-2 py-1"
              aria-label="Previous month"
            >
              ‹
            </Link>
            <h2 className="font-semibold">{data.monthLabel}</h2>
            {nextDisabled ? (
              <span className="px-2 py-1 text-slate-300" aria-hidden="true">
                ›
              </span>
            ) : (
              <Link
                to={`?day=${data.nextMonth}`}
                preventScrollReset
                className="btn-ghost px-2 py-1"
                aria-label="Next month"
              >
                ›
              </Link>
            )}
          </div>
          <div
            className="grid grid-cols-7 gap-1 text-center text-xs"
            role="grid"
            aria-label={`Calendar, ${data.monthLabel}`}
          >
            <div role="row" className="contents">
              {["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].map((d) => (
                <div key={d} role="columnheader" className="py-1 font-semibold text-slate-600">
                  {d}
                </div>
              ))}
            </div>
            {Array.from({ length: 6 }, (_, week) => (
              <div key={week} role="row" className="contents">
                {data.cells.slice(week * 7, week * 7 + 7).map((c) => {
                  const future = c.day > data.today;
                  const selected = c.day === data.day;
                  const today = c.day === data.today;
                  const cls = `relative flex h-9 items-center justify-center rounded-md text-sm ${
                    selected
                      ? "bg-brand-600 font-semibold text-white"
                      : today
                        ? "border border-brand-600 font-semibold text-brand-700"
                        : c.inMonth
                          ? "text-slate-800 hover:bg-slate-100"
                          : "text-slate-500"
                  }`;
                  const label = `${formatDate(`${c.day}T00:00:00Z`)}${c.hasClips ? ", has clips" : ""}`;
                  return (
                    <div key={c.day} role="gridcell" aria-selected={selected}>
                      {future ? (
                        <span
                          className={`${cls} cursor-not-allowed opacity-40`}
                          aria-disabled="true"
                          aria-label={label}
                        >
                          {Number(c.day.slice(8))}
                        </span>
                      ) : (
                        <Link
                          to={`?day=${c.day}`}
                          preventScrollReset
                          className={cls}
                          aria-label={label}
                          data-day={c.day}
                        >
                          {Number(c.day.slice(8))}
                          {c.hasClips && (
                            <span
                              aria-hidden="true"
                              className={`absolute bottom-1 h-1 w-1 rounded-full ${selected ? "bg-white" : "bg-brand-600"}`}
                            />
                          )}
                        </Link>
                      )}
                    </div>
                  );
                })}
              </div>
            ))}
          </div>
        </Panel>
      </div>
      <div className="mt-6">
        <Panel title={`Clips for ${formatDate(`${data.day}T00:00:00Z`)}`}>
          {loadingClips ? (
            <p role="status" className="py-6 text-center text-slate-600">
              Loading clips...
            </p>
          ) : (
            <ListTable
              caption="Clips for the selected day"
              columns={["Clip Name", "Created By", "Time", "Status", "Credits Used"]}
              isEmpty={data.clips.length === 0}
              empty="No clips were created on this day."
            >
              {data.clips.map((c) => (
                <tr key={c.id}>
                  <Td className="font-medium">{c.name}</Td>
                  <Td>{c.fullName ?? "N/A"}</Td>
                  <Td>{formatTime(c.createdAt)}</Td>
                  <Td>
                    <StatusBadge value="Completed" />
                  </Td>
                  <Td className="tabular-nums">{c.cost}</Td>
                </tr>
              ))}
            </ListTable>
          )}
        </Panel>
      </div>
      {data.creating && <CreateClipModal formKey={data.formKey} created={data.created} answer={answer} />}
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Calendars | Admin | ClipCut" }];

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
