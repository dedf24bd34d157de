import { describe, expect, it } from "vitest";
import { AUTO_CLOSE_MS, COPY_CONFIRM_MS } from "./admin";
import { MAINTENANCE_NOTICE_DELAY_MS } from "./site";

// The spec's timings (product-spec, "Maintenance modal delay 500 ms. … Success modal auto-close 2000 ms. Copy
// confirmation 2000 ms."): the app and its browser tests read these constants, so the numbers are pinned here.
describe("the spec's timings", () => {
  it.each([
    ["maintenance notice delay", MAINTENANCE_NOTICE_DELAY_MS, 500],
    ["success modal auto-close", AUTO_CLOSE_MS, 2000],
    ["copy confirmation", COPY_CONFIRM_MS, 2000],
  ])("%s is %d ms as the spec says", (_name, actual, spec) => {
    expect(actual).toBe(spec);
  });
});
