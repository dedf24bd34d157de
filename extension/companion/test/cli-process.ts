import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { inject } from "vitest";

export const CLI = fileURLToPath(new URL("../src/host/cli.ts", import.meta.url));
export const BIN = fileURLToPath(new URL("../bin/clipcut-companion.mjs", import.meta.url));
export const TSX = fileURLToPath(new URL("../../../node_modules/tsx/dist/cli.mjs", import.meta.url));
/**
 * node's arguments that run this run's build of the CLI (global-setup.ts bundles src/host/cli.ts once): for the
 * commands whose behaviour does not depend on how the CLI was started (cut, serve, native-host, --help). `install`,
 * `uninstall`, `doctor` and `autostart` write or read launchers made from the running script's path: those run the
 * sources through tsx (runCli), as a repository's `npm run companion` does.
 */
export const BUILT_CLI = ["--enable-source-maps", inject("builtCli")];

export function runCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  cwd?: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return run([TSX, CLI, ...args], env, cwd);
}

/** runCli with this run's build of the CLI (BUILT_CLI). */
export function runBuiltCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  cwd?: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return run([...BUILT_CLI, ...args], env, cwd);
}

function run(
  nodeArgs: string[],
  env: NodeJS.ProcessEnv,
  cwd?: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, nodeArgs, { env: { ...process.env, ...env }, cwd });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** Starts `serve` in its own process group (so a test can kill it and its ffmpeg like a crash would). */
export function startServe(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ child: ChildProcess; port: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...BUILT_CLI, "serve", ...args], {
      env: { ...process.env, ...env },
      detached: true,
    });
    let output = "";
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${output}`)), 30_000);
    child.stdout?.on("data", (d: Buffer) => {
      output += d.toString();
      const port = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output)?.[1];
      if (port && output.includes("Pairing token")) {
        clearTimeout(timer);
        setTimeout(() => resolve({ child, port: Number(port), output }), 50);
      }
    });
    child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
    child.on("exit", () => reject(new Error(`serve exited: ${output}`)));
  });
}
