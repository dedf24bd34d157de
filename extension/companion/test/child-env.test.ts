import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { runProcess } from "../src/ffmpeg";
import { toolVersion } from "../src/host/tools";
import { tempDir } from "./helpers";

const SET = {
  http_proxy: "http://127.0.0.1:9/",
  HTTPS_PROXY: "http://127.0.0.1:9/",
  no_proxy: "127.0.0.1,localhost,internal.example",
  NO_PROXY: "internal.example",
  ALL_PROXY: "socks5://127.0.0.1:9",
};
afterEach(() => {
  for (const key of [...Object.keys(SET), "CLIPCUT_KEPT"]) delete process.env[key];
});

it("children (yt-dlp, ffmpeg) start without the user's proxy variables: only the companion's --proxy applies", async () => {
  Object.assign(process.env, SET, { CLIPCUT_KEPT: "yes" });
  const { stdout } = await runProcess("env", []);
  const names = stdout.split("\n").map((line) => line.split("=")[0]);
  for (const key of Object.keys(SET)) expect(names).not.toContain(key);
  expect(names).toContain("CLIPCUT_KEPT");
  expect(names).toContain("PATH");
  // The version probes too (a stand-in tool that reports how many proxy variables it sees).
  const tool = join(tempDir("clipcut-tool-"), "tool");
  writeFileSync(tool, `#!/bin/sh\necho "proxies:$(env | grep -ci '_proxy=')"\n`);
  chmodSync(tool, 0o755);
  expect(await toolVersion(tool, "--version")).toBe("proxies:0");
});
