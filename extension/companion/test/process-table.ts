import { readdirSync, readFileSync } from "node:fs";

/** Processes whose command line or environment contains `marker` (Linux /proc), as "pid: command". */
export function processesWith(marker: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    if (Number(pid) === process.pid) continue;
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ");
      let env = "";
      try {
        env = readFileSync(`/proc/${pid}/environ`, "utf8");
      } catch {
        // not ours to read
      }
      // A zombie has no command line and is already dead.
      if (cmd && (cmd.includes(marker) || env.includes(marker))) found.push(`${pid}: ${cmd.trim()}`);
    } catch {
      // exited while we looked
    }
  }
  return found;
}

export async function waitUntilGone(marker: string, ms = 5000): Promise<string[]> {
  const deadline = Date.now() + ms;
  let left = processesWith(marker);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    left = processesWith(marker);
  }
  return left;
}
