/**
 * Per-IP limits count an IPv6 caller by its /64: one subscriber usually holds a whole /64 and can pick any address
 * in it, so counting single addresses would give them 2^64 budgets. IPv4 addresses count as they are.
 */
const HEXTET = /^[0-9a-f]{1,4}$/;

/** The eight hextets of an IPv6 address (with "::" expanded, an embedded IPv4 tail allowed), or null. */
function ipv6Hextets(address: string): string[] | null {
  const text =
    address
      .trim()
      .toLowerCase()
      .replace(/^\[|\]$/g, "")
      .split("%")[0] ?? "";
  if (!text.includes(":")) return null;
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const parse = (part: string | undefined) => (part ? part.split(":") : []);
  const head = parse(halves[0]);
  const tail = parse(halves[1]);
  // An IPv4 tail ("::ffff:192.0.2.1") is two hextets; only the first four matter here, so it just counts.
  const last = tail.length > 0 ? tail : head;
  if (last.length > 0 && /^\d+\.\d+\.\d+\.\d+$/.test(last[last.length - 1] ?? "")) last.splice(-1, 1, "0", "0");
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const all = [...head, ...Array.from({ length: halves.length === 2 ? missing : 0 }, () => "0"), ...tail];
  return all.every((h) => HEXTET.test(h)) ? all : null;
}

/** The key a per-IP limit counts under: "2001:db8:1:2::/64" for any address of that /64, the input otherwise. */
export function ipLimitKey(ip: string): string {
  const hextets = ipv6Hextets(ip);
  if (!hextets) return ip;
  return `${hextets
    .slice(0, 4)
    .map((h) => h.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}
