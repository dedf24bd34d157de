import { safeVideoHref } from "~/domain/video-link";

/** A stored video URL, as a link only when it is http(s); anything else is shown as inert text. */
export function VideoSourceLink({ url, className }: { url: string; className?: string }) {
  const href = safeVideoHref(url);
  if (!href) return <span className={`break-all text-slate-500 ${className ?? ""}`}>{url}</span>;
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer nofollow"
      className={`break-all font-medium text-brand-700 underline ${className ?? ""}`}
    >
      {url}
    </a>
  );
}
