#!/usr/bin/env node
/**
 * A stand-in for yt-dlp, for tests (point CLIPCUT_YTDLP at this file). YouTube is unreachable in tests, so this
 * answers at the process boundary the way yt-dlp does. STABLE INTERFACE — the extension's tests use it too.
 *
 * Invocations it understands:
 *   --version                  prints a date version "YYYY.MM.DD": env FAKE_YTDLP_VERSION, else the fixture's
 *                              "version", else today's date (a fresh yt-dlp).
 *   -J [-f SELECTOR] ... URL   prints the info JSON for URL (other flags such as --no-playlist are accepted and
 *                              ignored). Exit 0 on success, 1 with yt-dlp's own "ERROR: …" line on stderr.
 *   -U                         prints "yt-dlp is up to date (…)" and exits 0.
 *
 * The fixture: env FAKE_YTDLP_JSON names a JSON file holding either
 *   - one fixture (used for every URL), or
 *   - { "byUrl": { "<page url>": fixture, … } } (a URL not listed fails like an unsupported URL).
 * A fixture is a yt-dlp info dict: { id, title, duration, live_status?, is_live?, http_headers?, formats: [...] },
 * where each format is { format_id, url, ext, vcodec, acodec, width?, height?, fps?, tbr?, protocol?, http_headers? }
 * with vcodec/acodec "none" for audio-only/video-only streams. List formats worst first, best last, as yt-dlp does:
 * "best" means the last one that matches. Extra fixture keys understood by the fake:
 *   "error": "private" | "deleted" | "unavailable" | "age" | "bot" | "geo" | "network" | "upcoming" | "unsupported"
 *            → exit 1 with yt-dlp's real error text for that case (see ERRORS below);
 *   "stderr": "<text>", "exitCode": n → any other failure, verbatim;
 *   "hangSeconds": n → sleep n seconds before answering (timeouts, cancel and process-group tests);
 *   "hangChild": true | "<tag>" → while hanging, also run a child process (as yt-dlp runs ffmpeg) whose command
 *            line ends with the tag (default "fake-yt-dlp-helper"), so a test can look for it in the process table;
 *   "version": "2024.01.01" → what --version prints;
 *   "fetchPage": true → before answering, GET the page URL (plain http only) and follow its redirects, as yt-dlp
 *            does: through the --proxy given (absolute-form requests, its user:secret as Proxy-Authorization),
 *            else directly. A refused or failed request ends like yt-dlp's "Unable to download webpage".
 * env FAKE_YTDLP_LOG: a file to which each invocation's argv is appended as one JSON line (tests read the -f used).
 *
 * Option files, as yt-dlp reads them: unless its command line has --ignore-config (or --no-config), yt-dlp reads
 * yt-dlp.conf in the working folder (its "home" file when no -P is given) and the user's
 * ${XDG_CONFIG_HOME:-~/.config}/yt-dlp/config. The stand-in reads the same two files and acts on the one option of
 * theirs that shows they were read: --exec [WHEN:]CMD runs CMD through the shell before answering.
 *
 * Selectors (-f): alternatives "A/B/C", merges "V+A", atoms b|best|bv|bv*|bestvideo|ba|ba*|bestaudio|w|worst|wv|wa
 * or a format_id, each with filters [key<=n] [key>=n] [key<n] [key>n] [key=v] [key!=v] [key^=s] [key$=s] [key*=s]
 * (a "?" after the operator also accepts formats without the key). Output as yt-dlp's -J: a single format's fields
 * (url, ext, vcodec, acodec, height, http_headers, …) merged into the info dict, or for "V+A" a requested_formats
 * array [video, audio] (each with its own url and http_headers) and no top-level url. The formats list is kept.
 */
import { spawn, spawnSync } from "node:child_process";
import { request } from "node:http";
import { appendFileSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

const ERRORS = {
  private: (id) => `ERROR: [youtube] ${id}: Private video. Sign in if you've been granted access to this video`,
  deleted: (id) => `ERROR: [youtube] ${id}: Video unavailable. This video has been removed by the uploader`,
  unavailable: (id) => `ERROR: [youtube] ${id}: Video unavailable`,
  age: (id) =>
    `ERROR: [youtube] ${id}: Sign in to confirm your age. This video may be inappropriate for some users. ` +
    `Use --cookies-from-browser or --cookies for the authentication. See  ` +
    `https://github.com/yt-dlp/yt-dlp/wiki/FAQ#how-do-i-pass-cookies-to-yt-dlp  for how to manually pass cookies. ` +
    `Also see  https://github.com/yt-dlp/yt-dlp/wiki/Extractors#exporting-youtube-cookies  for tips on ` +
    `effectively exporting YouTube cookies`,
  bot: (id) =>
    `ERROR: [youtube] ${id}: Sign in to confirm you’re not a bot. Use --cookies-from-browser or --cookies for the ` +
    `authentication. See  https://github.com/yt-dlp/yt-dlp/wiki/FAQ#how-do-i-pass-cookies-to-yt-dlp  for how to ` +
    `manually pass cookies.`,
  geo: (id) =>
    `ERROR: [youtube] ${id}: Video unavailable. The uploader has not made this video available in your country`,
  network: (id) =>
    `ERROR: [youtube] ${id}: Unable to download API page: <urlopen error [Errno -3] Temporary failure in name ` +
    `resolution> (caused by TransportError('<urlopen error [Errno -3] Temporary failure in name resolution>'))`,
  upcoming: (id) => `ERROR: [youtube] ${id}: This live event will begin in 3 hours.`,
  unsupported: (_id, url) => `ERROR: Unsupported URL: ${url}`,
  format: (id) =>
    `ERROR: [youtube] ${id}: Requested format is not available. Use --list-formats for a list of available formats`,
};

const argv = process.argv.slice(2);
if (process.env.FAKE_YTDLP_LOG) appendFileSync(process.env.FAKE_YTDLP_LOG, `${JSON.stringify(argv)}\n`);

/** A config file's options: one or more a line, quoted with "" or '', "#" starting a comment. */
function splitOptions(text) {
  const out = [];
  for (const m of text.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(#[^\n]*)|([^\s"'#]+)/g)) {
    if (m[3] === undefined) out.push(m[1] ?? m[2] ?? m[4]);
  }
  return out;
}

if (!argv.includes("--ignore-config") && !argv.includes("--no-config")) {
  const files = [
    join(process.cwd(), "yt-dlp.conf"),
    join(process.env.XDG_CONFIG_HOME || join(homedir(), ".config"), "yt-dlp", "config"),
  ];
  for (const file of files) {
    let options;
    try {
      options = splitOptions(readFileSync(file, "utf8"));
    } catch {
      continue;
    }
    for (let i = 0; i < options.length; i++) {
      if (options[i] !== "--exec" || options[i + 1] === undefined) continue;
      const command = options[i + 1].replace(/^[a-z_]+:/, "");
      spawnSync("sh", ["-c", command], { stdio: "ignore" });
    }
  }
}

function loadFixture(url) {
  const file = process.env.FAKE_YTDLP_JSON;
  if (!file) return null;
  const data = JSON.parse(readFileSync(file, "utf8"));
  if (data && typeof data === "object" && data.byUrl) return url === undefined ? null : (data.byUrl[url] ?? null);
  return data;
}

function fail(text, code = 1) {
  process.stderr.write(`${text}\n`);
  process.exit(code);
}

function today() {
  const d = new Date();
  const pad = (n) => String(n).padStart(2, "0");
  return `${d.getUTCFullYear()}.${pad(d.getUTCMonth() + 1)}.${pad(d.getUTCDate())}`;
}

if (argv.includes("--version")) {
  let version = process.env.FAKE_YTDLP_VERSION;
  if (!version) {
    try {
      const data = loadFixture(undefined);
      version = data && typeof data.version === "string" ? data.version : undefined;
    } catch {
      version = undefined;
    }
  }
  process.stdout.write(`${version ?? today()}\n`);
  process.exit(0);
}
if (argv.includes("-U") || argv.includes("--update")) {
  process.stdout.write(
    `Latest version: stable@${today()} from yt-dlp/yt-dlp\nyt-dlp is up to date (stable@${today()})\n`,
  );
  process.exit(0);
}

// ---- format selection ------------------------------------------------------------------------------------------

const has = (codec) => typeof codec === "string" && codec !== "none";
const KINDS = {
  b: (f) => has(f.vcodec) && has(f.acodec),
  best: (f) => has(f.vcodec) && has(f.acodec),
  w: (f) => has(f.vcodec) && has(f.acodec),
  worst: (f) => has(f.vcodec) && has(f.acodec),
  bv: (f) => has(f.vcodec) && !has(f.acodec),
  bestvideo: (f) => has(f.vcodec) && !has(f.acodec),
  wv: (f) => has(f.vcodec) && !has(f.acodec),
  "bv*": (f) => has(f.vcodec),
  ba: (f) => has(f.acodec) && !has(f.vcodec),
  bestaudio: (f) => has(f.acodec) && !has(f.vcodec),
  wa: (f) => has(f.acodec) && !has(f.vcodec),
  "ba*": (f) => has(f.acodec),
};
const WORST = new Set(["w", "worst", "wv", "wa"]);

function filterMatches(format, filter) {
  const m = /^([a-z_]+)\s*(<=|>=|!=|\^=|\$=|\*=|<|>|=)(\?)?\s*(.+)$/.exec(filter.trim());
  if (!m) fail(`ERROR: Invalid filter specification ${JSON.stringify(filter)}`);
  const [, key, op, optional, raw] = m;
  const value = format[key];
  if (value === undefined || value === null) return optional === "?";
  const n = Number(raw);
  switch (op) {
    case "<=":
      return Number(value) <= n;
    case ">=":
      return Number(value) >= n;
    case "<":
      return Number(value) < n;
    case ">":
      return Number(value) > n;
    case "=":
      return String(value) === raw;
    case "!=":
      return String(value) !== raw;
    case "^=":
      return String(value).startsWith(raw);
    case "$=":
      return String(value).endsWith(raw);
    default:
      return String(value).includes(raw);
  }
}

function pickAtom(formats, atom) {
  const m = /^([^[]+)((?:\[[^\]]*\])*)$/.exec(atom.trim());
  if (!m) fail(`ERROR: Invalid format specification ${atom}`);
  const [, name, filterText] = m;
  const filters = [...filterText.matchAll(/\[([^\]]*)\]/g)].map((x) => x[1]);
  const kind = KINDS[name];
  const candidates = formats.filter(
    (f) => (kind ? kind(f) : f.format_id === name) && filters.every((flt) => filterMatches(f, flt)),
  );
  if (candidates.length === 0) return null;
  return WORST.has(name) ? candidates[0] : candidates[candidates.length - 1];
}

function select(formats, selector) {
  for (const alternative of selector.split("/")) {
    const parts = alternative.split("+");
    const picked = parts.map((p) => pickAtom(formats, p));
    if (picked.every(Boolean)) return picked;
  }
  return null;
}

function mergedExt(video, audio) {
  if (video.ext === "mp4" && (audio.ext === "m4a" || audio.ext === "mp4")) return "mp4";
  if (video.ext === "webm" && audio.ext === "webm") return "webm";
  return "mkv";
}

// ---- answer ----------------------------------------------------------------------------------------------------

const url = [...argv].reverse().find((a) => /^[a-z]+:\/\//i.test(a));
const fIndex = argv.findIndex((a) => a === "-f" || a === "--format");
const selector = fIndex >= 0 ? argv[fIndex + 1] : "bv*+ba/b";
if (!argv.includes("-J") && !argv.includes("--dump-single-json")) fail("ERROR: the fake yt-dlp only answers -J");
if (!url) fail("Usage: yt-dlp [OPTIONS] URL [URL...]\n\nyt-dlp: error: You must provide at least one URL.", 2);

const fixture = loadFixture(url);
if (!fixture) fail(ERRORS.unsupported("", url));
const id = fixture.id ?? "dQw4w9WgXcQ";

/** One GET, through the proxy when one is given; resolves with the status and the Location header. */
function get(target, proxy) {
  return new Promise((resolve, reject) => {
    const options = proxy
      ? {
          host: proxy.hostname,
          port: proxy.port,
          path: target,
          headers: {
            Host: new URL(target).host,
            "Proxy-Authorization": `Basic ${Buffer.from(
              `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`,
            ).toString("base64")}`,
          },
        }
      : target;
    const req = request(options, (res) => {
      res.resume();
      resolve({ status: res.statusCode, location: res.headers.location });
    });
    req.on("error", reject);
    req.end();
  });
}

if (fixture.fetchPage) {
  const proxyIndex = argv.indexOf("--proxy");
  const proxy = proxyIndex >= 0 ? new URL(argv[proxyIndex + 1]) : null;
  let current = url;
  for (let hop = 0; ; hop++) {
    if (hop > 5) fail(`ERROR: [generic] Unable to download webpage: too many redirects`);
    const answer = await get(current, proxy).catch((e) =>
      fail(`ERROR: [generic] Unable to download webpage: <urlopen error ${e.message}>`),
    );
    if (answer.status >= 300 && answer.status < 400 && answer.location)
      current = new URL(answer.location, current).href;
    else if (answer.status >= 400) fail(`ERROR: [generic] Unable to download webpage: HTTP Error ${answer.status}`);
    else break;
  }
}

if (fixture.hangChild) {
  const tag = typeof fixture.hangChild === "string" ? fixture.hangChild : "fake-yt-dlp-helper";
  spawn(process.execPath, ["-e", "setTimeout(() => {}, 3600e3)", tag], { stdio: "ignore" });
}
if (typeof fixture.hangSeconds === "number") await new Promise((r) => setTimeout(r, fixture.hangSeconds * 1000));
if (fixture.stderr) fail(fixture.stderr, fixture.exitCode ?? 1);
if (fixture.error) {
  const make = ERRORS[fixture.error];
  if (!make) fail(`fake-yt-dlp: unknown error kind ${fixture.error}`, 3);
  fail(make(id, url), 1);
}

const {
  formats: listed = [],
  error: _e,
  stderr: _s,
  exitCode: _c,
  hangSeconds: _h,
  version: _v,
  fetchPage: _f,
  ...info
} = fixture;
// yt-dlp fills in each format's protocol from its URL when the extractor does not set it.
const formats = listed.map((f) => ({
  ...f,
  protocol: f.protocol ?? (/^https:/i.test(f.url ?? "") ? "https" : "http"),
}));
const chosen = select(formats, selector);
if (!chosen) fail(ERRORS.format(id));
const base = {
  id,
  webpage_url: url,
  original_url: url,
  extractor: "youtube",
  live_status: "not_live",
  is_live: false,
  ...info,
  formats,
};
let answer;
if (chosen.length === 1) {
  const [f] = chosen;
  answer = { ...base, ...f, http_headers: f.http_headers ?? info.http_headers ?? {}, format: f.format_id };
} else {
  const [video, audio] = chosen;
  const { url: _u, http_headers: _hh, ...rest } = base;
  answer = {
    ...rest,
    format_id: chosen.map((f) => f.format_id).join("+"),
    format: chosen.map((f) => f.format_id).join("+"),
    ext: mergedExt(video, audio),
    vcodec: video.vcodec,
    acodec: audio.acodec,
    width: video.width,
    height: video.height,
    fps: video.fps,
    requested_formats: chosen.map((f) => ({ ...f, http_headers: f.http_headers ?? info.http_headers ?? {} })),
  };
}
process.stdout.write(`${JSON.stringify(answer)}\n`);
