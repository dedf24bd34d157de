/**
 * URLs as they may be logged: the secret part of e-mailed links (/reset-password/<token>, /verify-email/<token>)
 * is replaced, so logs never hold a working link.
 */
export function redactUrl(url: string): string {
  return url.replace(/\/(reset-password|verify-email)\/[^/?#]+/gi, "/$1/[redacted]");
}
