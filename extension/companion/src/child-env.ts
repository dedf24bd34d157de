/**
 * The environment of every child: the companion's own, without any proxy variable. yt-dlp honours no_proxy even
 * with --proxy, so a page redirecting to a host listed there was fetched directly, around the egress guard; ffmpeg
 * reads http_proxy too. The companion gives each child the only proxy it may use, on its command line.
 */
export function childEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const clean: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(env)) if (!/_proxy$/i.test(key)) clean[key] = value;
  return clean as NodeJS.ProcessEnv;
}
