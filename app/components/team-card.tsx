import { Link, useRouteLoaderData } from "@remix-run/react";
import { useLive } from "~/components/realtime";
import type { TeamSummary } from "~/domain/teams";

/**
 * A team member's account: they clip on the team's plan and shared balance (the owner's), with their own usage
 * beside it. Nothing for anyone who pays for themselves.
 */
export function TeamCard() {
  // The app layout's loader gives `team` (a member's summary, or null).
  const team = (useRouteLoaderData("routes/_app") as { team?: TeamSummary | null } | undefined)?.team;
  // The shared balance moves when anyone on the team clips: the member's socket hears it (teamCredits).
  const { teamCredits, teamUsage } = useLive();
  if (!team) return null;
  const credits = teamCredits ?? team.credits;
  // The member's own clips paid by the team since the layout loaded arrive over the socket too.
  const usage = { clips: team.usage.clips + teamUsage.clips, credits: team.usage.credits + teamUsage.credits };
  return (
    <section className="card" aria-labelledby="team-card-title" data-testid="team-card">
      <h2 id="team-card-title" className="text-sm font-medium text-slate-600">
        {team.ownerName}&apos;s team ({team.plan})
      </h2>
      <p className="mt-2 text-2xl font-bold" data-testid="team-credits">
        {credits.balance.toLocaleString("en-US")} shared credits
      </p>
      <p className="mt-1 text-sm text-slate-600">
        You used {usage.credits.toLocaleString("en-US")} credits for {usage.clips} clip
        {usage.clips === 1 ? "" : "s"} this period. Your clips are paid from the team&apos;s balance.
      </p>
      <Link to="/team" className="btn-secondary mt-4">
        Team
      </Link>
    </section>
  );
}
