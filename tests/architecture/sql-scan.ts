/**
 * Finds SQL statements written in TypeScript: every string literal, template literal (its text parts
 * joined, `${…}` read as a name) and `+` chain of them, parsed with the TypeScript compiler, so a
 * statement over several lines or built from pieces is found as well as a one-line one. Comments are
 * not strings and are never reported. Used by sql-outside-db.test.ts: no SQL outside server/db/.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface SqlFinding {
  /** Path relative to the root given to the scan, with forward slashes. */
  file: string;
  line: number;
  /** The statement's text on one line, cut to 100 characters. */
  text: string;
}

/**
 * The shapes of a statement. Upper-case keywords are SQL in our code (English text does not shout
 * SELECT … FROM); the lower-case forms are matched only where their shape is SQL's own
 * (`insert into name (`, `update name set name =`, `delete from name`), not plain words.
 */
const STATEMENT: readonly RegExp[] = [
  /\bSELECT\b[\s\S]*\bFROM\b/,
  /\bSELECT\s+(\d|\*|[a-z_]+\s*\()/,
  /\b(INSERT\s+INTO|DELETE\s+FROM|ALTER\s+TABLE)\s+"?\w+/,
  /\b(CREATE|DROP)\s+(UNIQUE\s+)?(TABLE|INDEX|VIEW|TRIGGER|EXTENSION)\b/,
  /\bTRUNCATE\s+(TABLE\s+)?"?\w+/,
  /\bupdate\s+"?\w+"?\s+set\s+"?\w+"?\s*=/i,
  /\binsert\s+into\s+"?\w+"?\s*(\(|values\b|select\b)/i,
  /\bdelete\s+from\s+"?\w+"?\s*(where\b|returning\b|;|$)/i,
  /\b(create|drop)\s+(unique\s+)?(table|index)\s+(if\s+(not\s+)?exists\s+)?"?\w+"?\s*(\(|on\b|;|$)/i,
  /\balter\s+table\s+"?\w+"?\s+(add|drop|rename|alter)\b/i,
  /\bselect\s+[\w.*, ()]+\s+from\s+"?\w+"?\s+(where|order|group|join|limit)\b/i,
  /\bWITH\s+\w+\s+AS\s*\(\s*SELECT\b/i,
];

export const looksLikeSql = (text: string): boolean => STATEMENT.some((pattern) => pattern.test(text));

/** The text a string-like expression stands for (`${x}` read as `x`), or undefined when it is none. */
function staticText(node: ts.Node): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return node.head.text + node.templateSpans.map((span) => ` x ${span.literal.text}`).join('');
  if (ts.isTaggedTemplateExpression(node)) return staticText(node.template);
  if (ts.isParenthesizedExpression(node)) return staticText(node.expression);
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const left = staticText(node.left);
    const right = staticText(node.right);
    if (left === undefined && right === undefined) return undefined;
    return `${left ?? ' x '}${right ?? ' x '}`;
  }
  return undefined;
}

const isStringLike = (node: ts.Node): boolean =>
  ts.isStringLiteral(node) ||
  ts.isNoSubstitutionTemplateLiteral(node) ||
  ts.isTemplateExpression(node) ||
  (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken);

/** The SQL statements of one file's source text. */
export function sqlInSource(file: string, source: string): SqlFinding[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: SqlFinding[] = [];
  const visit = (node: ts.Node): void => {
    if (isStringLike(node)) {
      const text = staticText(node);
      if (text !== undefined && looksLikeSql(text)) {
        const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
        found.push({ file, line, text: text.replace(/\s+/g, ' ').trim().slice(0, 100) });
        return; // the parts of a reported expression are not reported again
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** Every .ts/.tsx file under `dir` (relative to `root`), skipping the folders `skip` names (relative to root). */
export function typeScriptFiles(root: string, dir: string, skip: readonly string[] = []): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const entry of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = path.posix.join(rel, entry.name);
      if (entry.isDirectory()) {
        if (!skip.includes(child) && entry.name !== 'node_modules') walk(child);
      } else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(child);
    }
  };
  walk(dir);
  return out.sort();
}

/** The SQL statements of the files under `dir`, the folders of `skip` aside. */
export function sqlUnder(root: string, dir: string, skip: readonly string[] = []): SqlFinding[] {
  return typeScriptFiles(root, dir, skip).flatMap((file) => sqlInSource(file, fs.readFileSync(path.join(root, file), 'utf8')));
}
