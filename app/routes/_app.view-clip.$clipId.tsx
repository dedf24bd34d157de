import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { ErrorBox } from "~/components/error-box";
import { VideoSourceLink } from "~/components/video-source-link";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { getDb } from "~/db/client.server";
import { clipForViewer } from "~/db/clips.server";
import { describeCaptions } from "~/domain/clip-request";
import { describeCrop } from "~/domain/crop";
import { formatShortDate } from "~/domain/greeting";
import { FORMAT_LABELS } from "~/domain/media";
import { MESSAGES } from "~/domain/messages";
import { formatMinutesSeconds, formatTimecode } from "~/domain/time";
import { extractYouTubeId, parseHttpUrl, youTubeEmbedUrl } from "~/domain/video-link";
import { requireUser } from "~/services/auth.server";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  // A team owner also opens the clips their members made on the team (the clips list links to them).
  const viewer = { userId: user.id, teamOwner: user.teamRole === "owner" };
  const found = await clipForViewer(getDb(context.cloudflare.env.DB), viewer, params.clipId ?? "");
  if (!found) throw new Response(MESSAGES.clipNotFound, { status: 404 });
  const { userId, madeBy, ...clip } = found;
  const videoId = extractYouTubeId(clip.videoUrl);
  return {
    clip,
    embedUrl: videoId ? youTubeEmbedUrl(videoId, clip.startSeconds, clip.endSeconds) : null,
    // Any other http(s) link is a direct media file: the browser plays the clip's range (a media fragment).
    mediaUrl: videoId ? null : directMediaUrl(clip.videoUrl, clip.startSeconds, clip.endSeconds),
    timeZone: user.timeZone ?? "UTC",
    // A team member's clip, seen by the owner, names who made it.
    madeBy: userId === user.id ? null : (madeBy ?? "A former team member"),
  };
}

function directMediaUrl(videoUrl: string, start: number, end: number): string | null {
  const url = parseHttpUrl(videoUrl);
  if (!url) return null;
  if (!url.hash) url.hash = `t=${start},${end}`;
  return url.href;
}

export default function ViewClip() {
  const { clip, embedUrl, mediaUrl, timeZone, madeBy } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-6">
      <Link to="/dashboard" className="text-sm font-medium text-brand-700 hover:underline">
        ← Back to dashboard
      </Link>
      <h1 className="text-2xl font-bold tracking-tight">{clip.name}</h1>
      {embedUrl ? (
        <div className="aspect-video overflow-hidden rounded-2xl bg-black shadow">
          <iframe
            src={embedUrl}
            title={`Video player: ${clip.name}`}
            className="h-full w-full"
            allow="accelerometer; encrypted-media; picture-in-picture"
            allowFullScreen
          />
        </div>
      ) : mediaUrl ? (
        <div className="aspect-video overflow-hidden rounded-2xl bg-black shadow">
          <video
            src={mediaUrl}
            controls
            preload="metadata"
            className="h-full w-full"
            aria-label={`Video player: ${clip.name}`}
          >
            <track kind="captions" />
          </video>
        </div>
      ) : (
        <ErrorBox error={MESSAGES.invalidClipVideoUrl} />
      )}
      <p className="text-sm text-slate-600">
        Source: <VideoSourceLink url={clip.videoUrl} />
      </p>
      <dl className="card grid gap-4 sm:grid-cols-4">
        {[
          ["Start", formatTimecode(clip.startSeconds)],
          ["End", formatTimecode(clip.endSeconds)],
          ["Length", formatMinutesSeconds(clip.endSeconds - clip.startSeconds)],
          ["Format", `${FORMAT_LABELS[clip.format]} · ${clip.quality}`],
          ["Aspect", describeCrop(clip.aspect, clip.cropPosition)],
          ["Captions", describeCaptions(clip.captions)],
          ["Cost", `${clip.cost} credits`],
          ["Created", formatShortDate(clip.createdAt, timeZone)],
          ...(madeBy ? [["Made by", madeBy]] : []),
        ].map(([term, value]) => (
          <div key={term}>
            <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{term}</dt>
            <dd className="mt-1 font-medium">{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary
      statusHandlers={{
        404: () => (
          <div className="space-y-4">
            <ErrorBox error={MESSAGES.clipNotFound} />
            <Link to="/dashboard" className="btn-secondary">
              Back to dashboard
            </Link>
          </div>
        ),
      }}
    />
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.clip.name ?? "Clip"} | ClipCut` }];
