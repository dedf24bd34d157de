import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * Code branches on a ledger refusal's `reason`, never on its message: the message is for people, and rewording it
 * must not change who pays or what a client does. Outside app/domain/ledger, no source compares a ledger message:
 * neither a constant or text a refusal is built with (`fail(reason, message)`), nor a `.message` in a file that
 * handles ledger answers (one that imports a ledger module or reads API errors).
 */
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SCANNED = ["app", "workers", "extension/src", "extension/companion/src"];
const LEDGER = "app/domain/ledger/";
const STRING_MATCHES = new Set(["includes", "startsWith", "endsWith", "indexOf", "match", "search", "test"]);
const EQUALITY = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
]);

interface Source {
  path: string;
  file: ts.SourceFile;
}

function sourcesUnder(dir: string): Source[] {
  const out: Source[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules") out.push(...sourcesUnder(path));
    } else if (/\.(ts|tsx|mjs|js)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
      out.push(parse(path, readFileSync(join(ROOT, path), "utf8")));
    }
  }
  return out;
}

function parse(path: string, text: string): Source {
  const kind = path.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  return { path, file: ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind) };
}

function walk(node: ts.Node, visit: (node: ts.Node) => void): void {
  visit(node);
  node.forEachChild((child) => walk(child, visit));
}

const importsOf = (file: ts.SourceFile) =>
  file.statements.flatMap((s) => (ts.isImportDeclaration(s) && ts.isStringLiteral(s.moduleSpecifier) ? [s] : []));
const fromLedger = (specifier: string) => /ledger/.test(specifier);

/** What ledger refusals are built with: the message argument of every `fail(reason, message)`. */
interface LedgerMessages {
  /** Constants and calls (`TEAM_SUSPENDED_MESSAGE`, `ADMIN_RIGHTS_MESSAGES.stepUpNeeded`, `batchFullMessage`). */
  names: Set<string>;
  /** Literal texts, and the fixed start of templated ones. */
  texts: Set<string>;
  starts: Set<string>;
}

function ledgerMessages(sources: Source[]): LedgerMessages {
  const found: LedgerMessages = { names: new Set(), texts: new Set(), starts: new Set() };
  const add = (node: ts.Expression): void => {
    if (ts.isParenthesizedExpression(node)) return add(node.expression);
    if (ts.isConditionalExpression(node)) return (add(node.whenTrue), add(node.whenFalse));
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return void found.texts.add(node.text);
    if (ts.isTemplateExpression(node)) {
      if (node.head.text.length >= 8) found.starts.add(node.head.text);
      return;
    }
    if (ts.isCallExpression(node)) return add(node.expression);
    // `limits.message` passes another message on: the `.message` rule below covers those.
    if (ts.isPropertyAccessExpression(node) && node.name.text === "message") return;
    if (ts.isIdentifier(node) || ts.isPropertyAccessExpression(node)) found.names.add(node.getText());
  };
  for (const { path, file } of sources) {
    // `fail` is the ledger's own inside app/domain/ledger; elsewhere only where it is imported from a ledger module.
    const ledgerFail =
      path.startsWith(LEDGER) ||
      importsOf(file).some(
        (i) =>
          fromLedger((i.moduleSpecifier as ts.StringLiteral).text) &&
          i.importClause?.namedBindings &&
          ts.isNamedImports(i.importClause.namedBindings) &&
          i.importClause.namedBindings.elements.some((e) => e.name.text === "fail"),
      );
    if (!ledgerFail) continue;
    walk(file, (node) => {
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "fail") {
        const message = node.arguments[1];
        if (message) add(message);
      }
    });
  }
  return found;
}

/** Every comparison of a ledger message in one file outside the ledger, as `path:line: code`. */
function comparisons(source: Source, messages: LedgerMessages): string[] {
  const { path, file } = source;
  const handlesLedger =
    importsOf(file).some((i) => fromLedger((i.moduleSpecifier as ts.StringLiteral).text)) ||
    file.text.includes("apiErrorSchema");
  const strip = (node: ts.Expression): ts.Expression =>
    ts.isParenthesizedExpression(node) || ts.isNonNullExpression(node) || ts.isAsExpression(node)
      ? strip(node.expression)
      : node;
  const isLedgerMessage = (raw: ts.Expression): boolean => {
    const node = strip(raw);
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))
      return messages.texts.has(node.text) || [...messages.starts].some((start) => node.text.startsWith(start));
    if (ts.isCallExpression(node)) return isLedgerMessage(node.expression);
    if (ts.isPropertyAccessExpression(node) && node.name.text === "message") return handlesLedger;
    return (ts.isIdentifier(node) || ts.isPropertyAccessExpression(node)) && messages.names.has(node.getText());
  };
  const found: string[] = [];
  const report = (node: ts.Node) => {
    const line = file.getLineAndCharacterOfPosition(node.getStart()).line + 1;
    found.push(`${path}:${line}: ${node.getText().split("\n")[0]}`);
  };
  walk(file, (node) => {
    if (ts.isBinaryExpression(node) && EQUALITY.has(node.operatorToken.kind)) {
      if (isLedgerMessage(node.left) || isLedgerMessage(node.right)) report(node);
    } else if (ts.isSwitchStatement(node)) {
      if (isLedgerMessage(node.expression)) report(node);
    } else if (ts.isCaseClause(node)) {
      if (isLedgerMessage(node.expression)) report(node);
    } else if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      STRING_MATCHES.has(node.expression.name.text)
    ) {
      if (isLedgerMessage(node.expression.expression) || node.arguments.some(isLedgerMessage)) report(node);
    }
  });
  return found;
}

const sources = SCANNED.flatMap(sourcesUnder);
const messages = ledgerMessages(sources);

describe("ledger messages are for people", () => {
  it("finds what ledger refusals are built with (constants, calls, texts)", () => {
    for (const name of ["TEAM_SUSPENDED_MESSAGE", "NOT_A_MEMBER_MESSAGE", "BUSY_MESSAGE", "batchFullMessage"])
      expect(messages.names).toContain(name);
    expect(messages.names).toContain("ADMIN_RIGHTS_MESSAGES.stepUpNeeded");
    expect(messages.texts).toContain("Hold not found.");
    expect(messages.texts).toContain("User not found.");
    expect(messages.starts).toContain("This hold was ");
  });

  it("finds a comparison of a ledger message, however it is written", () => {
    const found = (code: string) =>
      comparisons(parse("workers/sample.ts", `import { fail } from "../app/domain/ledger";\n${code}`), messages);
    expect(found("if (result.message === TEAM_SUSPENDED_MESSAGE) stale();")).toHaveLength(1);
    expect(found("if (NOT_A_MEMBER_MESSAGE !== r.message) stale();")).toHaveLength(1);
    expect(found("switch (r.message) { case NOT_A_MEMBER_MESSAGE: break; }")).toHaveLength(2);
    expect(found('const gone = r.message.startsWith("This hold was");')).toHaveLength(1);
    expect(found("const suspended = /suspended/.test(failure.message);")).toHaveLength(1);
    expect(found('const missing = text === "Hold not found.";')).toHaveLength(1);
    expect(found('if (result.reason === "team_suspended") stale();')).toEqual([]);
    expect(found("show(result.message);")).toEqual([]);
  });

  it("no code outside app/domain/ledger compares one: it branches on the refusal's reason", () => {
    const outside = sources.filter((s) => !s.path.startsWith(LEDGER));
    expect(outside.length).toBeGreaterThan(100);
    expect(outside.flatMap((s) => comparisons(s, messages))).toEqual([]);
  });
});
