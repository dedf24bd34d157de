import { ListTable, Td } from "~/components/list";

/** A Pro team owner's Analytics: what each person on the team clipped from the shared balance in the range. */
export interface TeamFigure {
  id: string;
  fullName: string;
  email: string;
  role: "owner" | "member";
  clips: number;
  credits: number;
}

const n = (value: number) => value.toLocaleString("en-US");

export function TeamFigures({ people, label }: { people: TeamFigure[]; label: string }) {
  return (
    <section className="card overflow-hidden p-0" aria-labelledby="team-figures">
      <h2 id="team-figures" className="px-6 pt-6 text-lg font-semibold">
        Your team
      </h2>
      <p className="px-6 pt-1 text-sm text-slate-600">Clips and credits from the team&apos;s balance, {label}.</p>
      <div className="mt-4">
        <ListTable
          caption="Your team's figures"
          columns={["Member", { label: "Clips", align: "right" }, { label: "Credits", align: "right" }]}
          isEmpty={people.length === 0}
          empty="Nobody on the team yet."
          minWidth={false}
          framed={false}
          testId="team-figures"
        >
          {people.map((p) => (
            <tr key={p.id}>
              <th scope="row" className="px-4 py-3 font-normal">
                <span className="block font-medium">
                  {p.fullName}
                  {p.role === "owner" ? " (you)" : ""}
                </span>
                <span className="block break-all text-slate-600">{p.email}</span>
              </th>
              <Td className="text-right tabular-nums">{n(p.clips)}</Td>
              <Td className="text-right tabular-nums">{n(p.credits)}</Td>
            </tr>
          ))}
        </ListTable>
      </div>
    </section>
  );
}
