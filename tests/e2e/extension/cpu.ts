import { readdirSync, readFileSync } from "node:fs";
import type { Page } from "@playwright/test";

/**
 * CPU time of the journey's two local parts (Linux /proc), for bench/extension-journey.ts: the companion (every host
 * process the browser started for this install, with its ffmpeg and yt-dlp) and the browser (every other process under
 * the browser's main one). A process's own time plus that of its children it has reaped (cutime, cstime), summed over
 * the live processes of the tree: an ffmpeg that has ended is counted in its host.
 */
interface Proc {
  pid: number;
  ppid: number;
  ticks: number;
}

const TICK_MS = 10; // USER_HZ on Linux

function read(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

function table(): Map<number, Proc> {
  const procs = new Map<number, Proc>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const stat = read(`/proc/${name}/stat`);
    if (!stat) continue;
    // After the command's closing parenthesis: state, ppid, …, utime (12th), stime, cutime, cstime.
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
    procs.set(Number(name), { pid: Number(name), ppid: Number(f[1]), ticks });
  }
  return procs;
}

export interface JourneyCpu {
  browserMs: number;
  companionMs: number;
  /** The browser's, by process type (browser, renderer, gpu-process, utility, …). */
  byType: Record<string, number>;
}

/** CPU ms of the browser started on `profile` (its own tree, the companion aside) and of the companion (`marker`). */
export function journeyCpu(profile: string, marker: string): JourneyCpu {
  const procs = table();
  const cmdline = (pid: number) => (read(`/proc/${pid}/cmdline`) ?? "").replace(/\0/g, " ");
  const inCompanion = (pid: number) =>
    cmdline(pid).includes(marker) || (read(`/proc/${pid}/environ`) ?? "").includes(marker);
  const children = new Map<number, number[]>();
  for (const p of procs.values()) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p.pid]);
  const tree = (root: number, skip: (pid: number) => boolean): number[] => {
    const out: number[] = [];
    const walk = (pid: number) => {
      if (skip(pid)) return;
      out.push(pid);
      for (const child of children.get(pid) ?? []) walk(child);
    };
    walk(root);
    return out;
  };
  const sum = (pids: number[]) => pids.reduce((ms, pid) => ms + (procs.get(pid)?.ticks ?? 0) * TICK_MS, 0);
  const browser = [...procs.keys()].find((pid) => {
    const cmd = cmdline(pid);
    return cmd.includes(profile) && !cmd.includes("--type=");
  });
  const companionRoots = [...procs.values()].filter((p) => inCompanion(p.pid) && !inCompanion(p.ppid));
  const companion = companionRoots.flatMap((p) => tree(p.pid, () => false));
  const browserTree = browser === undefined ? [] : tree(browser, (pid) => companion.includes(pid));
  const byType: Record<string, number> = {};
  for (const pid of browserTree) {
    const type = /--type=(\S+)/.exec(cmdline(pid))?.[1] ?? (pid === browser ? "browser" : "other");
    byType[type] = (byType[type] ?? 0) + sum([pid]);
  }
  return { browserMs: sum(browserTree), companionMs: sum(companion), byType };
}

/** What each part spent between two readings. */
export function cpuSpent(before: JourneyCpu, after: JourneyCpu) {
  const byType: Record<string, number> = {};
  for (const [type, ms] of Object.entries(after.byType)) byType[type] = ms - (before.byType[type] ?? 0);
  return {
    companionMs: after.companionMs - before.companionMs,
    browserMs: after.browserMs - before.browserMs,
    byType,
  };
}

/**
 * Chromium's page metrics read: the main thread's busy time, and its script, layout and style parts, and what the
 * test's own DevTools commands took (Playwright's polling: not the product's).
 */
const KINDS = ["TaskDuration", "ScriptDuration", "LayoutDuration", "RecalcStyleDuration", "DevToolsCommandDuration"];

/**
 * Each page's main-thread busy time from now on (Chromium's own TaskDuration, through the DevTools protocol), in ms:
 * call the returned function to read it.
 */
export async function watchMainThreads(pages: Record<string, Page>): Promise<() => Promise<Record<string, number>>> {
  const sessions = await Promise.all(
    Object.entries(pages).map(async ([name, page]) => {
      const cdp = await page.context().newCDPSession(page);
      await cdp.send("Performance.enable");
      const read = async () => {
        const { metrics } = await cdp.send("Performance.getMetrics");
        const ms = (metric: string) => (metrics.find((m) => m.name === metric)?.value ?? 0) * 1000;
        return KINDS.map(ms);
      };
      return { name, cdp, read, start: await read() };
    }),
  );
  return async () => {
    const out: Record<string, number> = {};
    for (const s of sessions) {
      const end = await s.read();
      KINDS.forEach((kind, i) => {
        const ms = Math.round(end[i]! - s.start[i]!);
        if (kind === "TaskDuration") out[s.name] = ms;
        else out[`${s.name} ${kind.replace("Duration", "").toLowerCase()}`] = ms;
      });
      await s.cdp.detach();
    }
    return out;
  };
}
