import { PLACEHOLDERS, type PlaceholderName, type PlaceholderScreen } from "~/domain/admin-placeholders";
import { ADMIN_PAGE_SIZE } from "~/domain/admin";
import { ListTable, Pagination, SearchForm } from "~/components/list";
import { PageHeader, StatCard, StatGrid } from "./ui";

/** A display-only screen: cards, an empty table, its search (back to page 1) and a header-only CSV. */
export function PlaceholderPage({
  name,
  q,
  values = {},
}: {
  name: PlaceholderName;
  q: string | undefined;
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
        <SearchForm id={`${name}-search`} label={screen.search} placeholder={screen.search} value={q} />
      )}
      <ListTable caption={screen.title} columns={screen.headers} isEmpty empty={screen.empty}>
        {null}
      </ListTable>
      <Pagination page={1} pages={0} total={0} pageSize={ADMIN_PAGE_SIZE} href={() => `/admin/${name}`} />
    </div>
  );
}
