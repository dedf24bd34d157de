import { redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { FilterForm, ListTable, Pagination, type Column, type FilterField } from "~/components/list";
import { getDb } from "~/db/client.server";
import { listClipsFor } from "~/db/clips.server";
import { CLIPS_PAGE_SIZE, clipsList, clipsWindow } from "~/domain/clips-list";
import { describeCaptions } from "~/domain/clip-request";
import { describeCrop } from "~/domain/crop";
import { formatShortDate } from "~/domain/greeting";
import { FORMAT_LABELS, FORMATS } from "~/domain/media";
import { formatMinutesSeconds } from "~/domain/time";
import { requireUser } from "~/services/auth.server";

/** The columns a phone hides (their text shows under the clip's name there). */
const WIDE = "hidden sm:table-cell";

const FILTERS: FilterField[] = [
  { kind: "search", name: "q", label: "Search", placeholder: "Clip name or video link", wide: true },
  { kind: "select", name: "format", label: "Format", options: FORMATS, labels: FORMAT_LABELS, all: "All formats" },
  { kind: "date", name: "from", label: "From" },
  { kind: "date", name: "to", label: "To" },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const query = clipsList.parse(new URL(request.url).searchParams);
  const timeZone = user.timeZone ?? "UTC";
  const teamOwner = user.teamRole === "owner";
  const list = await listClipsFor(
    getDb(context.cloudflare.env.DB),
    { userId: user.id, teamOwner },
    { q: query.q, format: query.format, ...clipsWindow(query, timeZone) },
    query.page,
    CLIPS_PAGE_SIZE,
  );
  // A page past the end (an old link, a hand-edited one) shows the last page instead of an empty one.
  if (query.page > list.pages) throw redirect(clipsList.href("/clips", query, { page: list.pages }));
  return {
    query,
    teamOwner,
    timeZone,
    filtered: Boolean(query.q || query.format || query.from || query.to),
    total: list.total,
    pages: list.pages,
    rows: list.rows.map((c) => ({
      id: c.id,
      name: c.name,
      videoUrl: c.videoUrl,
      format: FORMAT_LABELS[c.format] ?? c.format,
      quality: c.quality,
      // Short-video options, only when there are any: most clips are Original without captions.
      aspect: c.aspect === "original" ? null : describeCrop(c.aspect, c.cropPosition),
      captions: c.captions ? describeCaptions(c.captions) : null,
      seconds: c.endSeconds - c.startSeconds,
      cost: c.cost,
      createdAt: c.createdAt,
      madeBy: c.userId === user.id ? null : (c.madeBy ?? "A former team member"),
    })),
  };
}

export default function ClipsPage() {
  const { query, teamOwner, timeZone, filtered, total, pages, rows } = useLoaderData<typeof loader>();
  const href = (page: number) => clipsList.href("/clips", query, { page });
  const exportSearch = clipsList.search(query, { page: undefined });
  // A phone shows one column: each clip's details move under its name (the other columns are hidden there).
  const columns: Column[] = [
    "Clip",
    { label: "Created", className: WIDE },
    { label: "Format", className: WIDE },
    { label: "Length", align: "right", className: WIDE },
    { label: "Credits", align: "right", className: WIDE },
    ...(teamOwner ? [{ label: "Made by", className: WIDE }] : []),
  ];
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">All clips</h1>
          <p className="mt-1 text-sm text-slate-600">
            {teamOwner ? "Your clips and the clips your team made on your balance" : "Every clip you made"}, newest
            first.
          </p>
        </div>
        <a href={exportSearch ? `/clips/export?${exportSearch}` : "/clips/export"} className="btn-secondary" download>
          Export CSV<span className="sr-only"> of {filtered ? "the clips these filters show" : "all your clips"}</span>
        </a>
      </div>
      <FilterForm
        fields={FILTERS}
        values={query}
        idPrefix="clips"
        resetHref="/clips"
        submitLabel="Filter"
        gridClass="sm:grid-cols-2 lg:grid-cols-5"
      />
      {total === 0 && !filtered ? (
        <div className="card text-center" data-testid="clips-empty">
          <p className="font-medium">No clips created yet</p>
          <p className="mt-1 text-sm text-slate-600">Clips you make with the extension show up here.</p>
          <Link to="/download" className="btn-primary mt-4">
            Get the extension
          </Link>
        </div>
      ) : (
        <ListTable
          caption={teamOwner ? "Your and your team's clips" : "Your clips"}
          columns={columns}
          isEmpty={rows.length === 0}
          empty="No clips match these filters."
          testId="clips-table"
          minWidth={false}
        >
          {rows.map((c) => {
            const created = formatShortDate(c.createdAt, timeZone);
            const length = formatMinutesSeconds(c.seconds);
            return (
              <tr key={c.id} data-testid="clip-row" className="align-top">
                <td className="max-w-0 px-4 py-3 sm:max-w-sm">
                  <Link
                    to={`/view-clip/${c.id}`}
                    className="block truncate font-medium text-brand-700 hover:underline focus-visible:underline"
                  >
                    {c.name}
                  </Link>
                  <span className="block truncate text-xs text-slate-600" title={c.videoUrl}>
                    {c.videoUrl}
                  </span>
                  <span className="mt-1 block text-xs text-slate-600 sm:hidden">
                    {created} · {c.format} {c.quality}
                    {c.aspect && <> · {c.aspect}</>}
                    {c.captions && <> · captions {c.captions}</>} · {length} · {c.cost} credit{c.cost === 1 ? "" : "s"}
                    {c.madeBy && <> · by {c.madeBy}</>}
                  </span>
                </td>
                <td className={`whitespace-nowrap px-4 py-3 ${WIDE}`}>{created}</td>
                <td className={`px-4 py-3 ${WIDE}`}>
                  <span className="whitespace-nowrap">
                    {c.format} <span className="text-slate-600">· {c.quality}</span>
                  </span>
                  {c.aspect && <span className="block whitespace-nowrap text-xs text-slate-600">{c.aspect}</span>}
                  {c.captions && (
                    <span className="block whitespace-nowrap text-xs text-slate-600">Captions: {c.captions}</span>
                  )}
                </td>
                <td className={`whitespace-nowrap px-4 py-3 text-right font-mono tabular-nums ${WIDE}`}>{length}</td>
                <td className={`whitespace-nowrap px-4 py-3 text-right tabular-nums ${WIDE}`}>{c.cost}</td>
                {teamOwner && <td className={`whitespace-nowrap px-4 py-3 ${WIDE}`}>{c.madeBy ?? "You"}</td>}
              </tr>
            );
          })}
        </ListTable>
      )}
      {(total > 0 || filtered) && (
        <Pagination page={query.page} pages={pages} total={total} pageSize={CLIPS_PAGE_SIZE} href={href} />
      )}
    </div>
  );
}

export const meta: MetaFunction = () => [
  { title: "All clips | ClipCut" },
  { name: "description", content: "Every clip you made: search, filter and export." },
];
