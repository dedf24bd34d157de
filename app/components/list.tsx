import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { pageWindow, showingText } from "~/domain/admin";

/**
 * The list-screen kit (admin lists and the analytics tables): a filter form (GET, so it works without JavaScript and the URL is the state), a table whose
 * sortable headers are links, and the "Showing X to Y of Z results" pager. The query itself is a `listQuery` from
 * app/domain/list-query.ts: it parses the URL and writes every link these parts need.
 */

/** `className` goes on the header cell, e.g. "hidden sm:table-cell" for a column a phone shows inside another one. */
export type Column = string | { label: string; sort?: string; align?: "right"; className?: string };
export interface SortState {
  column: string;
  dir: "asc" | "desc";
  /** The list URL sorted by `column` in `dir`, back on page 1. */
  href: (column: string, dir: "asc" | "desc") => string;
}

const columnOf = (c: Column) => (typeof c === "string" ? { label: c } : c);

function SortLink({ label, column, sort }: { label: string; column: string; sort: SortState }) {
  const active = sort.column === column;
  const next = active && sort.dir === "asc" ? "desc" : "asc";
  return (
    <Link
      to={sort.href(column, next)}
      className="inline-flex items-center gap-1 hover:underline"
      aria-label={`Sort by ${label} ${next === "asc" ? "ascending" : "descending"}`}
    >
      {label}
      <span aria-hidden="true">{active ? (sort.dir === "asc" ? "▲" : "▼") : "↕"}</span>
    </Link>
  );
}

/** A server-rendered table; `empty` shows as one full-width row when there are no rows. */
export function ListTable({
  columns,
  children,
  empty,
  isEmpty,
  caption,
  sort,
  minWidth = true,
  framed = true,
  testId,
}: {
  columns: Column[];
  children: ReactNode;
  empty: string;
  isEmpty: boolean;
  caption: string;
  sort?: SortState;
  /** Wide tables keep 640 px and scroll sideways on phones; narrow ones fit the screen. */
  minWidth?: boolean;
  /** Its own border; off inside a card that already has one. */
  framed?: boolean;
  testId?: string;
}) {
  return (
    // Focusable so keyboard users can scroll a wide table sideways on small screens.
    <div
      className={`overflow-x-auto ${framed ? "rounded-xl border border-slate-200 bg-white" : ""}`}
      tabIndex={0}
      role="region"
      aria-label={caption}
    >
      <table className={`w-full text-left text-sm ${minWidth ? "min-w-[640px]" : ""}`} data-testid={testId}>
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 text-slate-700">
          <tr>
            {columns.map(columnOf).map((c) => (
              <th
                key={c.label}
                scope="col"
                aria-sort={sort && c.sort ? (sort.column === c.sort ? `${sort.dir}ending` : "none") : undefined}
                className={`whitespace-nowrap px-4 py-3 font-semibold ${c.align === "right" ? "text-right" : ""} ${c.className ?? ""}`}
              >
                {sort && c.sort ? <SortLink label={c.label} column={c.sort} sort={sort} /> : c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {isEmpty ? (
            <tr>
              <td colSpan={columns.length} className="px-4 py-10 text-center text-slate-600">
                {empty}
              </td>
            </tr>
          ) : (
            children
          )}
        </tbody>
      </table>
    </div>
  );
}

export const Td = ({ children, className = "" }: { children: ReactNode; className?: string }) => (
  <td className={`whitespace-nowrap px-4 py-3 ${className}`}>{children}</td>
);

export type FilterField = { name: string; label: string; wide?: boolean } & (
  | { kind: "search" | "text"; placeholder?: string }
  | { kind: "number" }
  | { kind: "date" }
  | { kind: "select"; options: readonly string[]; all?: string; labels?: Readonly<Record<string, string>> }
);

/**
 * A GET form of filters. Submitting drops `page` (new filters start on page 1); `keep` carries what the form does not
 * show (the sort). Ids are `${idPrefix}-${name}`: a screen with a second form on it picks another prefix.
 */
export function FilterForm({
  fields,
  values,
  idPrefix,
  resetHref,
  keep = {},
  submitLabel = "Apply",
  gridClass = "sm:grid-cols-2 lg:grid-cols-4",
  children,
}: {
  fields: FilterField[];
  values: Record<string, unknown>;
  idPrefix: string;
  resetHref: string;
  keep?: Record<string, string>;
  submitLabel?: string;
  gridClass?: string;
  /** More controls on the buttons' row (e.g. a sort menu). */
  children?: ReactNode;
}) {
  const value = (name: string) => (values[name] === undefined ? "" : String(values[name]));
  return (
    <Form
      method="get"
      // A new URL re-renders the form with its values (the inputs are uncontrolled).
      key={JSON.stringify(values)}
      className={`mb-4 grid grid-cols-1 gap-3 rounded-xl border border-slate-200 bg-white p-4 [&>*]:min-w-0 ${gridClass}`}
    >
      {fields.map((field) => {
        const id = `${idPrefix}-${field.name}`;
        return (
          <div key={field.name} className={field.wide ? "sm:col-span-2" : undefined}>
            <label htmlFor={id} className="label">
              {field.label}
            </label>
            {field.kind === "select" ? (
              <select id={id} name={field.name} defaultValue={value(field.name)} className="input">
                <option value="">{field.all ?? "All"}</option>
                {field.options.map((o) => (
                  <option key={o} value={o}>
                    {field.labels?.[o] ?? o}
                  </option>
                ))}
              </select>
            ) : (
              <input
                id={id}
                name={field.name}
                type={field.kind === "number" ? "text" : field.kind}
                inputMode={field.kind === "number" ? "numeric" : undefined}
                placeholder={"placeholder" in field ? field.placeholder : undefined}
                defaultValue={value(field.name)}
                className="input"
              />
            )}
          </div>
        );
      })}
      {Object.entries(keep).map(([name, v]) => (
        <input key={name} type="hidden" name={name} value={v} />
      ))}
      <div className="col-span-full flex min-w-0 flex-wrap items-end gap-2">
        <button type="submit" className="btn-primary">
          {submitLabel}
        </button>
        <Link to={resetHref} className="btn-ghost">
          Reset
        </Link>
        {children}
      </div>
    </Form>
  );
}

/** One search box (GET, back to page 1), its label for screen readers only. */
export function SearchForm({
  id,
  label,
  placeholder,
  value,
}: {
  id: string;
  label: string;
  placeholder?: string;
  value: string | undefined;
}) {
  return (
    <Form method="get" role="search" className="mb-4 flex gap-2" key={value ?? ""}>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        name="q"
        type="search"
        defaultValue={value ?? ""}
        placeholder={placeholder}
        className="input max-w-md"
      />
      <button type="submit" className="btn-secondary">
        Search
      </button>
    </Form>
  );
}

/** "Showing X to Y of Z results", then first / previous / up to 3 numbers / next / last, as links. */
export function Pagination({
  page,
  pages,
  total,
  pageSize,
  href,
}: {
  page: number;
  pages: number;
  total: number;
  pageSize: number;
  href: (page: number) => string;
}) {
  const item = (label: string, target: number, disabled: boolean, current = false, aria?: string) => (
    <li key={`${label}-${target}`}>
      {disabled || current ? (
        <span
          aria-current={current ? "page" : undefined}
          aria-disabled={disabled || undefined}
          className={`inline-flex min-w-9 justify-center rounded-md border px-3 py-1.5 text-sm ${
            current ? "border-brand-600 bg-brand-600 font-semibold text-white" : "border-slate-200 text-slate-400"
          }`}
        >
          {label}
        </span>
      ) : (
        <Link
          to={href(target)}
          aria-label={aria}
          preventScrollReset
          className="inline-flex min-w-9 justify-center rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-50"
        >
          {label}
        </Link>
      )}
    </li>
  );
  return (
    <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
      <p className="text-sm text-slate-600" data-testid="showing">
        {showingText(page, pageSize, total)}
      </p>
      {pages > 0 && (
        <nav aria-label="Pagination">
          <ul className="flex flex-wrap gap-1">
            {item("«", 1, page <= 1, false, "First page")}
            {item("‹", page - 1, page <= 1, false, "Previous page")}
            {pageWindow(page, pages).map((n) => item(String(n), n, false, n === page, `Page ${n}`))}
            {item("›", page + 1, page >= pages, false, "Next page")}
            {item("»", pages, page >= pages, false, "Last page")}
          </ul>
        </nav>
      )}
    </div>
  );
}
