/**
 * SQL text handling shared by both adapters: placeholders (`?` positional, `@name` named) found
 * outside string literals, quoted names and comments; PostgreSQL's `$n` form; bound values checked;
 * and the portability guard that refuses, on both engines, what only one of them accepts.
 */
import { DataLayerError, type SqlParams, type SqlValue } from './data.js';

export interface ParsedSql {
  /** The statement with `$1, $2 …` instead of `?` / `@name` (PostgreSQL). */
  numbered: string;
  /** Number of `?` placeholders (0 when named). */
  positional: number;
  /** `@name` placeholders in order of first use; `$k` is names[k - 1]. */
  names: string[];
}

const NAME_START = /[A-Za-z_]/;
const NAME_CHAR = /[A-Za-z0-9_]/;

/** Splits the statement once; the result is cached by the adapters per SQL string. */
export function parseSql(sql: string): ParsedSql {
  let out = '';
  let positional = 0;
  const names: string[] = [];
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i] as string;
    const next = sql[i + 1];
    if (c === "'" || c === '"') {
      // A literal or quoted name; a doubled quote is an escaped one.
      let j = i + 1;
      while (j < n) {
        if (sql[j] === c) {
          if (sql[j + 1] === c) j += 2;
          else break;
        } else j++;
      }
      out += sql.slice(i, j + 1);
      i = j + 1;
    } else if (c === '-' && next === '-') {
      const end = sql.indexOf('\n', i);
      const j = end === -1 ? n : end;
      out += sql.slice(i, j);
      i = j;
    } else if (c === '/' && next === '*') {
      const end = sql.indexOf('*/', i + 2);
      const j = end === -1 ? n : end + 2;
      out += sql.slice(i, j);
      i = j;
    } else if (c === '?') {
      positional++;
      out += `$${positional}`;
      i++;
    } else if (c === '@' && next !== undefined && NAME_START.test(next)) {
      let j = i + 1;
      while (j < n && NAME_CHAR.test(sql[j] as string)) j++;
      const name = sql.slice(i + 1, j);
      let k = names.indexOf(name);
      if (k === -1) k = names.push(name) - 1;
      out += `$${k + 1}`;
      i = j;
    } else {
      out += c;
      i++;
    }
  }
  if (positional > 0 && names.length > 0) throw new DataLayerError(`a statement uses either ? or @name placeholders, not both: ${oneLine(sql)}`);
  return { numbered: out, positional, names };
}

function checkValue(value: unknown, where: string, sql: string): SqlValue {
  if (value === null || typeof value === 'string') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new DataLayerError(`${where} is ${value}, not a finite number: ${oneLine(sql)}`);
    return value;
  }
  throw new DataLayerError(`${where} is ${value === undefined ? 'undefined' : typeof value}; bind a string, a number or null (flags as 0/1): ${oneLine(sql)}`);
}

/** The values in placeholder order, each checked (same rules on both engines). */
export function orderedValues(parsed: ParsedSql, params: SqlParams | undefined, sql: string): SqlValue[] {
  if (parsed.names.length > 0) {
    if (!params || Array.isArray(params)) throw new DataLayerError(`@name placeholders need an object of values: ${oneLine(sql)}`);
    const named = params as Readonly<Record<string, unknown>>;
    return parsed.names.map((name) => {
      if (!Object.hasOwn(named, name)) throw new DataLayerError(`no value for @${name}: ${oneLine(sql)}`);
      return checkValue(named[name], `@${name}`, sql);
    });
  }
  const list = (params ?? []) as readonly unknown[];
  if (!Array.isArray(list)) throw new DataLayerError(`? placeholders need an array of values: ${oneLine(sql)}`);
  if (list.length !== parsed.positional) throw new DataLayerError(`${parsed.positional} placeholder(s) but ${list.length} value(s): ${oneLine(sql)}`);
  return list.map((v, k) => checkValue(v, `value ${k + 1}`, sql));
}

/**
 * Constructs one engine accepts and the other refuses or reads differently. Tests run on SQLite by
 * default, so without this guard a SQLite-only habit would surface only on PostgreSQL.
 */
const NOT_PORTABLE: { pattern: RegExp; use: string }[] = [
  { pattern: /\bINSERT\s+OR\s+\w+/i, use: 'INSERT … ON CONFLICT (key) DO NOTHING / DO UPDATE SET …' },
  { pattern: /\bREPLACE\s+INTO\b/i, use: 'INSERT … ON CONFLICT (key) DO UPDATE SET …' },
  {
    pattern: /\b(MAX|MIN)\s*\([^()]*,[^()]*\)/i,
    use: 'CASE WHEN a > b THEN a ELSE b END (two-argument MAX/MIN is SQLite only, GREATEST/LEAST PostgreSQL only)',
  },
  { pattern: /\b(GREATEST|LEAST)\s*\(/i, use: 'CASE WHEN a > b THEN a ELSE b END' },
  { pattern: /\bIFNULL\s*\(/i, use: 'COALESCE(…)' },
  { pattern: /\b(ILIKE|GLOB)\b/i, use: 'lower(column) = ? or an exact comparison' },
  {
    pattern: /\b(datetime|strftime|julianday|unixepoch|now)\s*\(|\bCURRENT_(TIMESTAMP|DATE|TIME)\b/i,
    use: 'epoch milliseconds from the server clock (ctx.now()) bound as a value',
  },
  { pattern: /\browid\b|\blast_insert_rowid\s*\(|\bchanges\s*\(\s*\)/i, use: 'INSERT … RETURNING id, and RunResult.changes' },
  { pattern: /::\s*[A-Za-z]/, use: 'CAST(x AS type)' },
  {
    pattern: /(\?|@\w+)\s*[-+*/%]\s*(\?|@\w+)/,
    use: 'CAST(? AS BIGINT) on one side, or one value computed before binding (PostgreSQL cannot type an operator between two placeholders)',
  },
  { pattern: /\b[Aa][Ss]\s+[a-z_]\w*[A-Z]\w*/, use: 'a lower-case alias (PostgreSQL folds unquoted names to lower case): AS user_id' },
];

/** Throws when the statement uses a construct of one engine only. Comments and literals are not inspected. */
export function assertPortable(sql: string): void {
  const code = stripLiterals(sql);
  for (const { pattern, use } of NOT_PORTABLE) {
    const m = pattern.exec(code);
    if (m) throw new DataLayerError(`not portable between SQLite and PostgreSQL: "${m[0]}"; use ${use}: ${oneLine(sql)}`);
  }
}

/** The statement with literals, quoted names and comments blanked (for the guard). */
function stripLiterals(sql: string): string {
  return sql.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|--[^\n]*|\/\*[\s\S]*?\*\//g, ' ');
}

export function oneLine(sql: string): string {
  const s = sql.replace(/\s+/g, ' ').trim();
  return s.length > 160 ? `${s.slice(0, 157)}...` : s;
}
