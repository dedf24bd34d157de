import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import { useState, type FormEvent } from "react";
import { ClipCutter, Spinner } from "~/components/marketing/clip/clip-cutter";
import { ClipIntro } from "~/components/marketing/clip/clip-intro";
import { LiveCredits } from "~/components/marketing/clip/live-credits";
import { RealtimeProvider } from "~/components/realtime";
import { getDb } from "~/db/client.server";
import { getOptionalUser } from "~/services/auth.server";
import { getExtensionId } from "~/services/settings.server";
import { INVALID_YOUTUBE_URL, extractYouTubeId } from "~/domain/video-link";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const link = (url.searchParams.get("url") ?? "").trim().slice(0, 2048);
  const videoId = link ? extractYouTubeId(link) : null;
  const db = getDb(context.cloudflare.env.DB);
  const [user, extensionId] = await Promise.all([
    getOptionalUser(request, context),
    getExtensionId(db, context.cloudflare.env),
  ]);
  // Plan and credits as the user's ledger answered them with the session.
  const applied = user?.standing.applied;
  return {
    link,
    videoId,
    extensionId,
    // The limits the cutter shows: the plan that applies (a team member's is the team's).
    plan: applied?.plan ?? "Free",
    // Signed in: the credits shown beside Create follow the ledger live.
    live: user
      ? {
          credits: user.standing.credits,
          plan: user.plan as string,
          pendingPlan: user.pendingPlan as string | null,
        }
      : null,
    error: link && !videoId ? INVALID_YOUTUBE_URL : null,
    // The embed posts its messages to this origin.
    origin: url.origin,
  };
}

export default function ClipPage() {
  const { link, videoId, error, origin, extensionId, live, plan } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const [clientError, setClientError] = useState<string | null>(null);
  const loading =
    navigation.state !== "idle" &&
    navigation.location.pathname === "/clip" &&
    new URLSearchParams(navigation.location.search).has("url");
  const shownError = clientError ?? (loading ? null : error);

  function validate(event: FormEvent<HTMLFormElement>) {
    const value = String(new FormData(event.currentTarget).get("url") ?? "");
    if (extractYouTubeId(value)) {
      setClientError(null);
    } else {
      event.preventDefault();
      setClientError(INVALID_YOUTUBE_URL);
    }
  }

  return (
    <div className="bg-gradient-to-b from-brand-50 to-white">
      <div className="container-page max-w-5xl py-12 sm:py-16">
        <div className="text-center">
          <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Video Cutter</p>
          <h1 className="mt-3 text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl">
            YouTube Video Cutter
          </h1>
          <p className="mx-auto mt-4 max-w-2xl text-lg text-slate-600">
            Paste a YouTube link, set your start and end, and preview your clip before you create it.
          </p>
        </div>

        <Form
          method="get"
          replace
          preventScrollReset
          noValidate
          onSubmit={validate}
          className="card mx-auto mt-8 max-w-3xl"
        >
          <label htmlFor="video-url" className="label">
            YouTube video link
          </label>
          <div className="flex flex-col gap-3 sm:flex-row">
            <input
              key={link}
              id="video-url"
              name="url"
              type="url"
              inputMode="url"
              defaultValue={link}
              placeholder="https://www.youtube.com/watch?v=..."
              autoComplete="off"
              required
              onChange={() => setClientError(null)}
              aria-invalid={shownError ? true : undefined}
              aria-describedby={shownError ? "video-url-error" : undefined}
              className="input"
            />
            <button type="submit" className="btn-primary shrink-0 px-6" disabled={loading}>
              Load Video
            </button>
          </div>
          {shownError && (
            <p id="video-url-error" role="alert" className="mt-2 text-sm font-medium text-red-700">
              {shownError}
            </p>
          )}
        </Form>

        <div className="mt-10">
          {loading ? (
            <div className="grid aspect-video place-items-center rounded-2xl bg-slate-900">
              <Spinner label="Loading video..." />
            </div>
          ) : videoId ? (
            <ClipCutter
              key={videoId}
              videoId={videoId}
              origin={origin}
              plan={plan}
              extensionId={extensionId}
              credits={
                live && (
                  <RealtimeProvider initial={live} extensionId={extensionId}>
                    <LiveCredits />
                  </RealtimeProvider>
                )
              }
            />
          ) : (
            <ClipIntro />
          )}
        </div>
      </div>
    </div>
  );
}

export const meta: MetaFunction = () => [
  { title: "YouTube Video Cutter | ClipCut" },
  {
    name: "description",
    content:
      "Cut a clip from any YouTube video online: paste a link, set the start and end, preview the loop, and choose MP4, MP3 or GIF.",
  },
];
