import { lookup } from "node:dns/promises";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { ClipError } from "./errors";

/**
 * SSRF guard: a job's source comes from a web page the user visits (through the extension), so it must not make the
 * companion read the user's router, a cloud metadata endpoint or a service on localhost. Loopback, private,
 * link-local, CGNAT, unique-local and multicast addresses are refused unless the user opted in
 * (--allow-private-sources / CLIPCUT_ALLOW_PRIVATE_SOURCES=1, for tests and local demos).
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  blocked.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const)
  blocked.addSubnet(net, prefix, "ipv6");

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, "ipv4");
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return blocked.check(mapped, "ipv4");
  return blocked.check(address, "ipv6");
}

export function envAllowsPrivateSources(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.CLIPCUT_ALLOW_PRIVATE_SOURCES === "1" || env.CLIPCUT_ALLOW_PRIVATE_SOURCES === "true";
}

const refusal = (url: string, why: string) =>
  new ClipError(
    "source_not_allowed",
    `The source ${url} points at ${why}, which the companion does not read (start it with --allow-private-sources to allow local sources).`,
    422,
  );

/** Resolves a host name to all its addresses (injectable in tests: a DNS answer that changes between two asks). */
export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: Resolver = (host) => lookup(host, { all: true, verbatim: true });

/** Throws when the URL is not plain http(s) on a public address. Resolves host names and checks every address. */
export async function assertPublicUrl(raw: string, allowPrivate: boolean): Promise<URL> {
  return (await checkPublicUrl(raw, allowPrivate)).url;
}

/**
 * assertPublicUrl, also returning the address that was checked (null for an IP literal, which needs no lookup), so
 * the connection can be made to exactly that address.
 */
export async function checkPublicUrl(
  raw: string,
  allowPrivate: boolean,
  resolve: Resolver = systemResolver,
): Promise<{ url: URL; address: { address: string; family: number } | null }> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ClipError("invalid_source", `Not a valid URL: ${raw}`, 400);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ClipError("invalid_source", "Only http(s) URLs are supported as sources.", 400);
  }
  if (url.username || url.password)
    throw new ClipError("invalid_source", "Source URLs must not hold credentials.", 400);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (!allowPrivate && (host === "localhost" || host.endsWith(".localhost"))) throw refusal(url.href, "this computer");
  if (isIP(host)) {
    if (!allowPrivate && isPrivateAddress(host)) throw refusal(url.href, "a private or local network address");
    return { url, address: null };
  }
  const addresses = await resolve(host).catch(() => {
    throw new ClipError("network", `Could not find the server ${host} (check the connection).`, 422);
  });
  if (!allowPrivate && addresses.some((a) => isPrivateAddress(a.address)))
    throw refusal(url.href, "a private or local network address");
  const first = addresses[0];
  if (!first) throw new ClipError("network", `Could not find the server ${host} (check the connection).`, 422);
  return { url, address: first };
}

/**
 * A GET that connects to the very address checkPublicUrl approved (a custom `lookup` hands it to the socket), so a
 * DNS answer that changes between the check and the connect (rebinding) cannot point the request at this computer or
 * the local network. Every redirect hop is checked and pinned again. Used for the bytes handed to ffmpeg (the
 * bounded-range proxy).
 */
export async function pinnedGet(
  raw: string,
  options: { headers: Record<string, string>; signal: AbortSignal; allowPrivate: boolean; resolve?: Resolver },
): Promise<IncomingMessage> {
  let current = raw;
  for (let hop = 0; hop < 6; hop++) {
    const { url, address } = await checkPublicUrl(current, options.allowPrivate, options.resolve);
    const pinned: LookupFunction | undefined = address
      ? (_host, lookupOptions, done) => {
          // Node asks for a list when it may try several families (autoSelectFamily).
          if ((lookupOptions as { all?: boolean }).all) done(null, [address]);
          else done(null, address.address, address.family);
        }
      : undefined;
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      const send = url.protocol === "https:" ? httpsRequest : httpRequest;
      const req = send(url, { headers: options.headers, signal: options.signal, lookup: pinned }, resolve);
      req.on("error", reject);
      req.end();
    });
    const location = res.headers.location;
    const status = res.statusCode ?? 0;
    if (status < 300 || status >= 400 || !location) return res;
    res.resume();
    current = new URL(location, current).href;
  }
  throw new ClipError("source_unavailable", "The source redirects too many times.", 422);
}

/** fetch that checks every redirect hop with assertPublicUrl (a public URL may redirect to 169.254.169.254). */
export async function guardedFetch(url: string, init: RequestInit, allowPrivate: boolean): Promise<Response> {
  let current = url;
  for (let hop = 0; hop < 6; hop++) {
    await assertPublicUrl(current, allowPrivate);
    const res = await fetch(current, { ...init, redirect: "manual" });
    const location = res.headers.get("location");
    if (res.status < 300 || res.status >= 400 || !location) return res;
    await res.body?.cancel();
    current = new URL(location, current).href;
  }
  throw new ClipError("source_unavailable", "The source redirects too many times.", 422);
}

/** The ClipCut API carries the user's token: https only, except on this computer (local development). */
export function checkApiBase(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ClipError("invalid_api_base", `Not a valid API base URL: ${raw}`, 422);
  }
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const loopback = host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
  if (url.protocol === "https:" || (url.protocol === "http:" && loopback)) return url.href.replace(/\/$/, "");
  throw new ClipError(
    "invalid_api_base",
    "The ClipCut API base must use https (plain http is allowed only for localhost).",
    422,
  );
}
