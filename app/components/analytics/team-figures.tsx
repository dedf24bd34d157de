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
      <div className="mt-4 overflow-x-auto" tabIndex={0} role="region" aria-label="Your team's figures">
        <table className="w-full text-left text-sm" data-testid="team-figures">
          <thead className="bg-slate-50">
            <tr>
              <th scope="col" className="px-6 py-3 font-semibold">
                Member
              </th>
              <th scope="col" className="px-6 py-3 text-right font-semibold">
                Clips
              </th>
              <th scope="col" className="px-6 py-3 text-right font-semibold">
                Credits
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {people.map((p) => (
              <tr key={p.id}>
                <th scope="row" className="px-6 py-3 font-normal">
                  <span className="block font-medium">
                    {p.fullName}
                    {p.role === "owner" ? " (you)" : ""}
                  </span>
                  <span className="block break-all text-slate-600">{p.email}</span>
                </th>
                <td className="px-6 py-3 text-right tabular-nums">{n(p.clips)}</td>
                <td className="px-6 py-3 text-right tabular-nums">{n(p.credits)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
