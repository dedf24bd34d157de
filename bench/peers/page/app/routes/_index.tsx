import { redirect, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";

interface Env {
  DB: D1Database;
}

const sha256Hex = async (text: string) =>
  [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)))]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("");

/** A signed-in page's reads: the session by its cookie, its user, then the page's own list (ten rows). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const db = (context.cloudflare as { env: Env }).env.DB;
  const token = /(?:^|;\s*)peer_session=([^;]+)/.exec(request.headers.get("Cookie") ?? "")?.[1];
  if (!token) throw redirect("/signin");
  const session = await db
    .prepare("SELECT user_id FROM sessions WHERE id = ? AND expires_at > ?")
    .bind(await sha256Hex(token), Date.now())
    .first<{ user_id: string }>();
  if (!session) throw redirect("/signin");
  const user = await db
    .prepare("SELECT id, full_name, plan, credits FROM users WHERE id = ?")
    .bind(session.user_id)
    .first<{ id: string; full_name: string; plan: string; credits: number }>();
  if (!user) throw redirect("/signin");
  const { results: clips } = await db
    .prepare("SELECT id, name, seconds, created_at FROM clips WHERE user_id = ? ORDER BY created_at DESC LIMIT 10")
    .bind(user.id)
    .all<{ id: string; name: string; seconds: number; created_at: number }>();
  return { user, clips };
}

export default function Page() {
  const { user, clips } = useLoaderData<typeof loader>();
  return (
    <main>
      <h1>Hello, {user.full_name}</h1>
      <p>
        {user.plan} plan, {user.credits} credits
      </p>
      <table>
        <tbody>
          {clips.map((clip) => (
            <tr key={clip.id}>
              <td>{clip.name}</td>
              <td>{clip.seconds} s</td>
              <td>{new Date(clip.created_at).toISOString().slice(0, 10)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </main>
  );
}
