import { lookup } from "node:dns/promises";
import { Agent as HttpAgent, request as httpRequest, type ClientRequestArgs, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { ClipError } from "../errors";

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

/** The 16 bytes of an IPv6 address (already checked by isIP), dotted IPv4 tails included. */
function ipv6Bytes(address: string): number[] {
  let text = address.toLowerCase().split("%")[0] ?? "";
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
  return groups.flatMap((g) => {
    const n = parseInt(g || "0", 16);
    return [n >> 8, n & 0xff];
  });
}

/**
 * IPv6 forms that carry an IPv4 address the network may route to it: IPv4-mapped (::ffff:a.b.c.d, also written in
 * hex), the deprecated IPv4-compatible ::a.b.c.d (::7f00:1 is 127.0.0.1), NAT64 (64:ff9b::/96) and 6to4
 * (2002:aabb:ccdd::/16). The embedded address gets the IPv4 rules.
 */
function embeddedIpv4(address: string): string | null {
  const b = ipv6Bytes(address);
  const v4 = (at: number) => b.slice(at, at + 4).join(".");
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return v4(12);
  if (zeros(0, 12) && !zeros(12, 16)) return v4(12);
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12)) return v4(12);
  if (b[0] === 0x20 && b[1] === 0x02) return v4(2);
  return null;
}

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, "ipv4");
  if (family !== 6) return true;
  if (blocked.check(address, "ipv6")) return true;
  const v4 = embeddedIpv4(address);
  return v4 !== null && blocked.check(v4, "ipv4");
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

/**
 * What the guard allows. `resolve` and `isPrivate` exist for tests: there, one loopback address stands in for the
 * public internet and another for the user's network, since no test can reach either.
 */
export interface Guard {
  /** Loopback/private addresses allowed (--allow-private-sources). */
  allowPrivate: boolean;
  resolve?: Resolver;
  isPrivate?: (address: string) => boolean;
}

export type Address = { address: string; family: number };

/** Throws when the URL is not plain http(s) on a public address. Resolves host names and checks every address. */
export async function assertPublicUrl(raw: string, guard: Guard): Promise<URL> {
  return (await checkPublicUrl(raw, guard)).url;
}

function parseSourceUrl(raw: string): URL {
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
  return url;
}

/**
 * assertPublicUrl, also returning the address that was checked, so the connection can be made to exactly that
 * address (never a second DNS answer).
 */
export async function checkPublicUrl(raw: string, guard: Guard): Promise<{ url: URL; address: Address }> {
  const url = parseSourceUrl(raw);
  return { url, address: await checkPublicHost(url.hostname, guard, url.href) };
}

/** Resolves a host once and checks every answer; the first is the one to connect to. */
export async function checkPublicHost(hostname: string, guard: Guard, shown = hostname): Promise<Address> {
  // CONNECT authorities arrive as written ("LOCALHOST:80"); URL hosts are lower case already.
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const isPrivate = guard.isPrivate ?? isPrivateAddress;
  if (!guard.allowPrivate && (host === "localhost" || host.endsWith(".localhost")))
    throw refusal(shown, "this computer");
  const family = isIP(host);
  if (family) {
    if (!guard.allowPrivate && isPrivate(host)) throw refusal(shown, "a private or local network address");
    return { address: host, family };
  }
  const addresses = await (guard.resolve ?? systemResolver)(host).catch(() => {
    throw new ClipError("network", `Could not find the server ${host} (check the connection).`, 422);
  });
  if (!guard.allowPrivate && addresses.some((a) => isPrivate(a.address)))
    throw refusal(shown, "a private or local network address");
  const first = addresses[0];
  if (!first) throw new ClipError("network", `Could not find the server ${host} (check the connection).`, 422);
  return first;
}

/** A `lookup` for node:http that answers with the checked address only. */
export function pinnedLookup(address: Address): LookupFunction {
  return (_host, lookupOptions, done) => {
    // Node asks for a list when it may try several families (autoSelectFamily).
    if ((lookupOptions as { all?: boolean }).all) done(null, [address]);
    else done(null, address.address, address.family);
  };
}

/**
 * Hosts one reader has checked (or is checking), and the address each was checked at. A reader that asks a host
 * again connects to that same address without a second lookup: no DNS round trip per range, and no later answer is
 * ever used. A check that fails is not kept.
 */
export type CheckedHosts = Map<string, Promise<Address>>;

/** checkPublicUrl, once per host for the holder of `checked`. */
async function checkOnce(raw: string, guard: Guard, checked: CheckedHosts | undefined) {
  if (!checked) return checkPublicUrl(raw, guard);
  const url = parseSourceUrl(raw);
  let address = checked.get(url.hostname);
  if (!address) {
    address = checkPublicHost(url.hostname, guard, url.href);
    checked.set(url.hostname, address);
    address.catch(() => checked.delete(url.hostname));
  }
  return { url, address: await address };
}

/**
 * Kept-alive sockets are pooled by host and the address it was checked at. Node's own pool keys on the host name alone,
 * so a request checked at one address could be sent over a socket opened for an earlier answer (of another check,
 * perhaps under another guard). The defaults are node's global agent's (keep-alive, newest socket first).
 */
type Pinned = ClientRequestArgs & { pinned?: string };
const pooledBy = (name: string, options?: Pinned) => `${name}:${options?.pinned ?? ""}`;
class PinnedHttpAgent extends HttpAgent {
  override getName(options?: Pinned) {
    return pooledBy(super.getName(options), options);
  }
}
class PinnedHttpsAgent extends HttpsAgent {
  override getName(options?: Pinned) {
    return pooledBy(super.getName(options), options);
  }
}
const agentOptions = { keepAlive: true, scheduling: "lifo", timeout: 5000 } as const;
const agents = { "http:": new PinnedHttpAgent(agentOptions), "https:": new PinnedHttpsAgent(agentOptions) };

/** One request to one checked URL, connected to the checked address; redirects are returned, not followed. */
export async function pinnedRequest(
  raw: string,
  options: Guard & {
    method?: string;
    headers: Record<string, string | string[]>;
    signal?: AbortSignal;
    body?: NodeJS.ReadableStream;
    checked?: CheckedHosts;
  },
): Promise<IncomingMessage> {
  const { url, address } = await checkOnce(raw, options, options.checked);
  return new Promise<IncomingMessage>((resolve, reject) => {
    const https = url.protocol === "https:";
    const pinned: Pinned = {
      method: options.method ?? "GET",
      headers: options.headers,
      signal: options.signal,
      lookup: pinnedLookup(address),
      agent: agents[https ? "https:" : "http:"],
      pinned: address.address,
    };
    const req = (https ? httpsRequest : httpRequest)(url, pinned, resolve);
    req.on("error", reject);
    if (options.body) options.body.pipe(req);
    else req.end();
  });
}

/**
 * A GET that connects to the very address checkPublicUrl approved (a custom `lookup` hands it to the socket), so a
 * DNS answer that changes between the check and the connect (rebinding) cannot point the request at this computer or
 * the local network. Every redirect hop is checked and pinned again. Every read of a source by the companion goes
 * through here (the media-type sniff, the origin size, the bounded-range proxy that feeds ffmpeg).
 */
export async function pinnedGet(
  raw: string,
  options: Guard & { headers: Record<string, string>; signal: AbortSignal; checked?: CheckedHosts },
): Promise<IncomingMessage> {
  let current = raw;
  for (let hop = 0; hop < 6; hop++) {
    const res = await pinnedRequest(current, options);
    const location = res.headers.location;
    const status = res.statusCode ?? 0;
    if (status < 300 || status >= 400 || !location) return res;
    res.resume();
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
