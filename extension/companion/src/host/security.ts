import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { DEFAULT_EXTENSION_ID } from "../../../../app/domain/extension";

/**
 * The local server is an attack surface (cf. Zoom's localhost server): any web page can send requests to
 * 127.0.0.1. Every request must pass three independent checks.
 */
export interface SecurityOptions {
  port: () => number;
  pairingToken: string;
  allowedOrigins: ReadonlySet<string>;
  firefox: FirefoxBinding;
}

/**
 * Firefox gives every install a random moz-extension://<uuid> origin, so it cannot be listed in advance. The first
 * moz-extension origin that presents the pairing token is bound; from then on only that one is accepted (until
 * `pair --reset`). Chrome's origin is fixed by the extension id and listed up front.
 */
export interface FirefoxBinding {
  bound(): string | null;
  bind(origin: string): void;
}

export function memoryFirefoxBinding(
  initial: string | null = null,
  persist?: (origin: string) => void,
): FirefoxBinding {
  let bound = initial;
  return {
    bound: () => bound,
    bind: (origin) => {
      if (bound !== null) return;
      bound = origin;
      persist?.(origin);
    },
  };
}

const FIREFOX_ORIGIN = /^moz-extension:\/\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const FIREFOX_UUID = /^\{?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\}?$/i;

export function isFirefoxOrigin(origin: string | undefined): origin is string {
  return origin !== undefined && FIREFOX_ORIGIN.test(origin);
}

/** An origin the server may answer: a listed one, or the bound Firefox one (or any Firefox one before binding). */
export function originAllowed(
  origin: string | undefined,
  options: Pick<SecurityOptions, "allowedOrigins" | "firefox">,
) {
  if (!origin) return false;
  if (options.allowedOrigins.has(origin)) return true;
  if (!isFirefoxOrigin(origin)) return false;
  const bound = options.firefox.bound();
  return bound === null || bound === origin;
}

export interface Refusal {
  status: 401 | 403;
  code: string;
  message: string;
}

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Set by the store package's bundler (scripts/pack.mjs): false there; undefined when run from the repository. */
declare const __CLIPCUT_DEV_BUILD__: boolean | undefined;

/**
 * The dev extension id comes from a public key in this repository: anyone can load an unpacked extension with that
 * id. So it is trusted only when the companion runs from the repository (a dev build), or when asked
 * (--trust-dev-extension, CLIPCUT_TRUST_DEV_EXTENSION=1); the packed companion trusts only the ids it is given.
 */
export function trustsDevExtension(flag = false, env: NodeJS.ProcessEnv = process.env): boolean {
  const devBuild = typeof __CLIPCUT_DEV_BUILD__ === "undefined" || __CLIPCUT_DEV_BUILD__;
  return devBuild || flag || env.CLIPCUT_TRUST_DEV_EXTENSION === "1" || env.CLIPCUT_TRUST_DEV_EXTENSION === "true";
}

/** Chrome ids become chrome-extension:// origins; a Firefox internal UUID given explicitly becomes moz-extension://. */
export function allowedOrigins(extensionIds: readonly string[] = [], trustDevId = trustsDevExtension()): Set<string> {
  return new Set(
    [...(trustDevId ? [DEFAULT_EXTENSION_ID] : []), ...extensionIds].map((id) => {
      const uuid = FIREFOX_UUID.exec(id)?.[1];
      return uuid ? `moz-extension://${uuid.toLowerCase()}` : `chrome-extension://${id}`;
    }),
  );
}

/** DNS rebinding: a page on evil.com resolving to 127.0.0.1 still sends "Host: evil.com". */
export function checkHost(host: string | undefined, port: number): Refusal | null {
  const match = /^(\[[0-9a-f:]+\]|[^:]+)(?::(\d+))?$/i.exec((host ?? "").trim().toLowerCase());
  const name = match?.[1];
  const hostPort = match?.[2];
  if (!name || !LOOPBACK_NAMES.has(name) || (hostPort !== undefined && Number(hostPort) !== port)) {
    return {
      status: 403,
      code: "forbidden_host",
      message: "Requests must address the companion as localhost or 127.0.0.1.",
    };
  }
  return null;
}

/** Only the ClipCut extension may call; browsers always send Origin on cross-origin fetch and WebSocket. */
export function checkOrigin(
  origin: string | undefined,
  options: Pick<SecurityOptions, "allowedOrigins" | "firefox">,
): Refusal | null {
  if (!originAllowed(origin, options)) {
    return {
      status: 403,
      code: "forbidden_origin",
      message: "This origin is not allowed to use the ClipCut companion.",
    };
  }
  return null;
}

function sameToken(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

/** The pairing token: "Authorization: Bearer <token>", or ?token= on the WebSocket, which cannot set headers. */
export function checkToken(req: IncomingMessage, expected: string, allowQuery: boolean): Refusal | null {
  const header = req.headers.authorization;
  let given = header?.startsWith("Bearer ") ? header.slice(7).trim() : undefined;
  if (given === undefined && allowQuery) {
    given = new URL(req.url ?? "/", "http://localhost").searchParams.get("token") ?? undefined;
  }
  if (!given) {
    return {
      status: 401,
      code: "pairing_required",
      message: "Pair the extension first: the pairing token is missing.",
    };
  }
  if (!sameToken(given, expected)) {
    return { status: 401, code: "invalid_pairing_token", message: "The pairing token is not valid." };
  }
  return null;
}

export function checkRequest(req: IncomingMessage, options: SecurityOptions, allowQueryToken: boolean): Refusal | null {
  const refusal =
    checkHost(req.headers.host, options.port()) ??
    checkOrigin(req.headers.origin, options) ??
    checkToken(req, options.pairingToken, allowQueryToken);
  // Pairing binds: the first Firefox origin that proves it holds the token becomes the only one accepted.
  const origin = req.headers.origin;
  if (!refusal && isFirefoxOrigin(origin) && !options.allowedOrigins.has(origin)) options.firefox.bind(origin);
  return refusal;
}
