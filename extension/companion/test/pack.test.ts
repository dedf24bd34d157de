import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, inject, it } from "vitest";
import { cutResultSchema } from "../../../app/domain/companion";
import { VERSION } from "../src/host/version";
import { call } from "./client";
import { tempDir } from "./helpers";

const dir = inject("mediaDir");
const PACK = fileURLToPath(new URL("../scripts/pack.mjs", import.meta.url));

it("the packed tarball installs into an empty prefix with no dependencies, cuts a clip and serves", async () => {
  const work = tempDir("clipcut-pack-");
  const printed = execFileSync(process.execPath, [PACK, "--out-dir", work], { encoding: "utf8" }).trim();
  const tgz = join(work, `clipcut-companion-${VERSION}.tgz`);
  expect(printed).toBe(tgz);
  const prefix = join(work, "prefix");
  execFileSync("npm", ["install", "-g", "--prefix", prefix, "--offline", "--no-audit", "--no-fund", tgz], {
    stdio: "pipe",
  });
  const installed = join(prefix, "lib", "node_modules", "clipcut-companion");
  // Bundled: nothing but the package itself (no node_modules of its own, no dev dependencies).
  expect(existsSync(join(installed, "node_modules"))).toBe(false);
  expect(readdirSync(installed).sort()).toEqual(["README.md", "bin", "package.json"]);
  // The bundled mediabunny keeps its MPL-2.0 notice: beside the program, and inline in it.
  expect(readFileSync(join(installed, "bin", "THIRD-PARTY-NOTICES.txt"), "utf8")).toMatch(
    /mediabunny[\s\S]*Mozilla Public License Version 2\.0/,
  );
  expect(readFileSync(join(installed, "bin", "main.cjs"), "utf8")).toMatch(/Mozilla Public\s*\*?\s*License, v\. 2\.0/);
  const bin = join(prefix, "bin", "clipcut-companion");
  const env = { ...process.env, PATH: `${join(prefix, "bin")}:${process.env.PATH}` };

  // --version answers from the few-line launcher: the program bundle is not even loaded (cold start).
  const preload = join(work, "loaded.cjs");
  writeFileSync(
    preload,
    `process.on("exit", () => process.stderr.write(Object.keys(require.cache).filter((f) => f.includes("clipcut-companion")).join("\\n")));`,
  );
  const version = spawnSync(bin, ["--version"], {
    encoding: "utf8",
    env: { ...env, NODE_OPTIONS: `--require ${preload}` },
  });
  expect(version.stdout).toBe(`${VERSION}\n`);
  expect(version.stderr).toMatch(/clipcut-companion\.cjs/);
  expect(version.stderr).not.toMatch(/main\.cjs/);
  // Every other command runs the program.
  expect(execFileSync(bin, ["--help"], { encoding: "utf8", env })).toMatch(/^clipcut-companion /);
  // Installing the package registers nothing with the browsers: `install` runs only when the user asks.
  expect(JSON.parse(readFileSync(join(installed, "package.json"), "utf8")).scripts).toBeUndefined();
  // The packed build does not trust the public dev id: a Chrome manifest needs the store ids it was built with.
  const dry = spawnSync(bin, ["install", "--dry-run", "--browser", "chrome"], { encoding: "utf8", env });
  expect(dry.stderr).toContain("No extension id to allow");

  const out = join(work, "clip.mp4");
  const stdout = execFileSync(bin, ["cut", join(dir, "src360.mp4"), "--start", "10.5", "--end", "12", "--out", out], {
    encoding: "utf8",
    env,
    cwd: work,
  });
  const result = cutResultSchema.parse(JSON.parse(stdout.trim().split("\n").pop()!));
  expect(result.output).toBe(out);
  expect(result.strategy).toBe("smart");
  expect(result.frames).toBe(45);

  const serve = spawn(bin, ["serve", "--port", "0", "--output-dir", join(work, "out")], {
    env: { ...env, CLIPCUT_COMPANION_CONFIG_DIR: join(work, "config") },
  });
  let text = "";
  serve.stdout.on("data", (d: Buffer) => (text += d.toString()));
  const deadline = Date.now() + 15_000;
  while (!/listening on http:\/\/127\.0\.0\.1:\d+/.test(text) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(text).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
  expect(text).toMatch(/Pairing token \(shown once/);
  // An installed companion is not a dev build: the public dev extension id (anyone can load an unpacked extension
  // with it) gets no answer, even with the pairing token.
  const port = Number(/listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(text)![1]);
  const token = /Pairing token \(shown once[^:]*: (\S+)/.exec(text)![1]!;
  const devOrigin = await call(port, token, "GET", "/health");
  serve.kill("SIGTERM");
  expect(devOrigin.status).toBe(403);
  expect((devOrigin.body as { error: { code: string } }).error.code).toBe("forbidden_origin");

  // Asked for (a developer testing the package with the unpacked extension), it is trusted.
  const dev = spawn(bin, ["serve", "--port", "0", "--output-dir", join(work, "out")], {
    env: { ...env, CLIPCUT_COMPANION_CONFIG_DIR: join(work, "config"), CLIPCUT_TRUST_DEV_EXTENSION: "1" },
  });
  let devText = "";
  dev.stdout.on("data", (d: Buffer) => (devText += d.toString()));
  while (!/listening on http:\/\/127\.0\.0\.1:\d+/.test(devText) && Date.now() < deadline + 15_000) {
    await new Promise((r) => setTimeout(r, 100));
  }
  const devPort = Number(/listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(devText)?.[1]);
  const trusted = await call(devPort, token, "GET", "/health");
  dev.kill("SIGTERM");
  expect(trusted.status).toBe(200);
});
