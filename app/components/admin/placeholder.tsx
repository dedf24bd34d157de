import { Form } from "@remix-run/react";
import { PLACEHOLDERS, type PlaceholderName, type PlaceholderScreen } from "~/domain/admin-placeholders";
import { DataTable, PageHeader, StatCard, StatGrid } from "./ui";

/** A display-only screen: cards, an empty table, its search (back to page 1) and a header-only CSV. */
export function PlaceholderPage({
  name,
  q,
  values = {},
}: {
  name: PlaceholderName;
  q: string;
  /** Cards with a real figure (Earnings' Total Revenue), by label. */
  values?: Record<string, string>;
}) {
  const screen: PlaceholderScreen = PLACEHOLDERS[name];
  return (
    <div>
      <PageHeader
        title={screen.title}
        crumb={screen.crumb}
        actions={
          <>
            <a href={`/admin/export/${name}`} download={screen.csv} className="btn-secondary">
              Export CSV
            </a>
            {screen.primary && (
              <button type="button" className="btn-primary" disabled title="Not available yet">
                {screen.primary}
              </button>
            )}
          </>
        }
      />
      <StatGrid>
        {screen.cards.map((c) => (
          <StatCard key={c.label} label={c.label} value={values[c.label] ?? c.value} />
        ))}
      </StatGrid>
      {screen.search && (
        <Form method="get" role="search" className="mb-4 flex gap-2">
          <label htmlFor={`${name}-search`} className="sr-only">
            {screen.search}
          </label>
          <input
            id={`${name}-search`}
            name="q"
            type="search"
            defaultValue={q}
            placeholder={screen.search}
            className="input max-w-sm"
          />
          <button type="submit" className="btn-secondary">
            Search
          </button>
        </Form>
      )}
      <DataTable caption={screen.title} headers={screen.headers} isEmpty empty={screen.empty}>
        {null}
      </DataTable>
      <p className="mt-4 text-sm text-slate-600" data-testid="showing">
        Showing 0 to 0 of 0 results
      </p>
    </div>
  );
}
