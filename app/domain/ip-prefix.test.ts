import { describe, expect, it } from "vitest";
import { ipLimitKey } from "./ip-prefix";

describe("ipLimitKey", () => {
  it("gives every address of one IPv6 /64 the same key (a /64 is one sign-up budget, not 2^64)", () => {
    const keys = new Set(
      [
        "2001:db8:1:2::1",
        "2001:0db8:0001:0002:ffff:ffff:ffff:fffe",
        "[2001:db8:1:2:a:b:c:d]",
        "2001:DB8:1:2::9%eth0",
      ].map(ipLimitKey),
    );
    expect([...keys]).toEqual(["2001:db8:1:2::/64"]);
  });

  it("keeps different /64s apart and IPv4 addresses as they are", () => {
    expect(ipLimitKey("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(ipLimitKey("::1")).toBe("0:0:0:0::/64");
    expect(ipLimitKey("::ffff:192.0.2.1")).toBe("0:0:0:0::/64");
    expect(ipLimitKey("192.0.2.1")).toBe("192.0.2.1");
    expect(ipLimitKey("local")).toBe("local");
  });

  it("leaves anything that is not an address unchanged", () => {
    for (const junk of ["1:2:3", "1::2::3", "g::1", "1:2:3:4:5:6:7:8:9", "user@example.com"]) {
      expect(ipLimitKey(junk)).toBe(junk);
    }
  });
});
