// `npm run check`: the companion keeps the shape its map promises (extension/companion/README.md).
// - No import cycle between its modules: a cycle hides which module a path really depends on.
// - No source file over 300 lines unless its top says why (a line starting "Long because:" in its first comment).
// Relative imports only (the companion imports app/domain and packages, which cannot import it back).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SRC = join(ROOT, "extension/companion/src");
const MAX_LINES = 300;

/** Every .ts module under src, tests aside (a test may import what it checks in any order). */
function modules(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return modules(path);
    return name.endsWith(".ts") && !name.endsWith(".test.ts") ? [path] : [];
  });
}

/** The relative imports of a module that land inside src, type-only ones too (they still tie the modules). */
function importsOf(file, known) {
  const text = readFileSync(file, "utf8");
  const found = new Set();
  for (const match of text.matchAll(/(?:import|export)\s[^;]*?from\s+["'](\.{1,2}\/[^"']+)["']/g)) {
    const base = resolve(dirname(file), match[1]).replace(/\.(js|ts)$/, "");
    for (const candidate of [`${base}.ts`, join(base, "index.ts")]) {
      if (known.has(candidate)) {
        found.add(candidate);
        break;
      }
    }
  }
  return [...found];
}

/** Strongly connected components with more than one module (Tarjan): each is an import cycle. */
function cycles(graph) {
  let index = 0;
  const stack = [];
  const meta = new Map();
  const out = [];
  const visit = (node) => {
    meta.set(node, { index, low: index, onStack: true });
    index++;
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!meta.has(next)) {
        visit(next);
        meta.get(node).low = Math.min(meta.get(node).low, meta.get(next).low);
      } else if (meta.get(next).onStack) {
        meta.get(node).low = Math.min(meta.get(node).low, meta.get(next).index);
      }
    }
    if (meta.get(node).low === meta.get(node).index) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        meta.get(member).onStack = false;
        component.push(member);
      } while (member !== node);
      const selfLoop = (graph.get(node) ?? []).includes(node);
      if (component.length > 1 || selfLoop) out.push(component);
    }
  };
  for (const node of graph.keys()) if (!meta.has(node)) visit(node);
  return out;
}

const files = modules(SRC);
const known = new Set(files);
const graph = new Map(files.map((file) => [file, importsOf(file, known)]));
const problems = [];
for (const component of cycles(graph)) {
  problems.push(`import cycle: ${component.map((f) => relative(SRC, f)).join(" → ")}`);
}
for (const file of files) {
  const text = readFileSync(file, "utf8");
  const lines = text.trimEnd().split("\n").length;
  const head = text.split("\n").slice(0, 30).join("\n");
  if (lines > MAX_LINES && !/Long because:/.test(head)) {
    problems.push(`${relative(SRC, file)}: ${lines} lines, and its top does not say why ("Long because: …")`);
  }
}
if (problems.length > 0) {
  console.error(`The companion's shape (scripts/check-companion-shape.mjs):\n  ${problems.join("\n  ")}`);
  process.exit(1);
}
console.log(`Companion: ${files.length} modules, no import cycle, long files say why.`);
