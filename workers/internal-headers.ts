/** Headers the Worker sets for its Durable Objects and routes; a client must never be able to send them. */
const INTERNAL_PREFIX = "x-clipcut-";

/** The request without any client-sent X-ClipCut-* header (the same request when it had none). */
export function stripInternalHeaders(request: Request): Request {
  const names = [...request.headers.keys()].filter((name) => name.toLowerCase().startsWith(INTERNAL_PREFIX));
  if (names.length === 0) return request;
  const headers = new Headers(request.headers);
  for (const name of names) headers.delete(name);
  return new Request(request, { headers });
}
