// A stand-in for Google's OAuth 2.0 / OpenID Connect endpoints on loopback, following Google's documented API:
//   GET  /o/oauth2/v2/auth   (authorization endpoint: client_id, redirect_uri, response_type=code, scope, state)
//   POST /token              (token endpoint: grant_type=authorization_code, code, redirect_uri, client_id, client_secret)
//   GET  /v1/userinfo        (userinfo endpoint: Authorization: Bearer <access_token>)
// Consent is automatic: tests choose the next identity (or an error) with POST /__control/next.
import { createServer } from "node:http";
import { randomBytes } from "node:crypto";

const port = Number(process.env.FAKE_GOOGLE_PORT ?? 8791);
const CLIENT_ID = process.env.FAKE_GOOGLE_CLIENT_ID ?? "test-client.apps.googleusercontent.com";
const CLIENT_SECRET = process.env.FAKE_GOOGLE_CLIENT_SECRET ?? "test-secret";

let next = null; // { sub, email, name, email_verified } or { error }
const codes = new Map(); // code -> { identity, redirectUri, clientId }
const tokens = new Map(); // access token -> identity

const json = (res, status, body) => {
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" });
  res.end(JSON.stringify(body));
};
const readBody = (req) =>
  new Promise((resolve) => {
    let data = "";
    req.on("data", (chunk) => (data += chunk));
    req.on("end", () => resolve(data));
  });

createServer(async (req, res) => {
  const url = new URL(req.url, `http://127.0.0.1:${port}`);
  if (req.method === "POST" && url.pathname === "/__control/next") {
    next = JSON.parse(await readBody(req));
    return json(res, 200, { ok: true });
  }
  if (req.method === "GET" && url.pathname === "/o/oauth2/v2/auth") {
    const p = url.searchParams;
    const redirectUri = p.get("redirect_uri");
    if (p.get("client_id") !== CLIENT_ID || !redirectUri) return json(res, 400, { error: "invalid_client" });
    if (p.get("response_type") !== "code") return json(res, 400, { error: "unsupported_response_type" });
    const scopes = (p.get("scope") ?? "").split(" ");
    // Google accepts the short scope names and the full userinfo URLs alike.
    const hasEmail = scopes.includes("email") || scopes.includes("https://www.googleapis.com/auth/userinfo.email");
    if (!scopes.includes("openid") || !hasEmail) return json(res, 400, { error: "invalid_scope" });
    const back = new URL(redirectUri);
    back.searchParams.set("state", p.get("state") ?? "");
    if (!next || next.error) {
      back.searchParams.set("error", next?.error ?? "access_denied");
    } else {
      const code = `4/${randomBytes(16).toString("hex")}`;
      codes.set(code, { identity: next, redirectUri, clientId: p.get("client_id") });
      back.searchParams.set("code", code);
      back.searchParams.set("scope", "email profile openid");
    }
    res.writeHead(302, { Location: back.toString() });
    return res.end();
  }
  if (req.method === "POST" && url.pathname === "/token") {
    const form = new URLSearchParams(await readBody(req));
    if (form.get("client_id") !== CLIENT_ID || form.get("client_secret") !== CLIENT_SECRET) {
      return json(res, 401, { error: "invalid_client", error_description: "The OAuth client was not found." });
    }
    const grant = codes.get(form.get("code") ?? "");
    codes.delete(form.get("code") ?? ""); // codes are single use
    if (form.get("grant_type") !== "authorization_code" || !grant || grant.redirectUri !== form.get("redirect_uri")) {
      return json(res, 400, { error: "invalid_grant", error_description: "Bad Request" });
    }
    const accessToken = `ya29.${randomBytes(24).toString("hex")}`;
    tokens.set(accessToken, grant.identity);
    return json(res, 200, {
      access_token: accessToken,
      expires_in: 3599,
      token_type: "Bearer",
      scope: "openid https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/userinfo.profile",
      id_token: "eyJhbGciOiJub25lIn0.e30.",
    });
  }
  if (req.method === "GET" && url.pathname === "/v1/userinfo") {
    const identity = tokens.get((req.headers.authorization ?? "").replace(/^Bearer /, ""));
    if (!identity) return json(res, 401, { error: "invalid_request", error_description: "Invalid Credentials" });
    const [given, ...family] = (identity.name ?? "").split(" ");
    return json(res, 200, {
      sub: identity.sub,
      name: identity.name,
      given_name: given,
      family_name: family.join(" "),
      picture: "https://lh3.googleusercontent.com/a/default-user",
      email: identity.email,
      email_verified: identity.email_verified ?? true,
      locale: "en",
    });
  }
  if (url.pathname === "/") return json(res, 200, { ok: true });
  json(res, 404, { error: "not_found" });
}).listen(port, "127.0.0.1", () => console.log(`fake Google on http://127.0.0.1:${port}`));
