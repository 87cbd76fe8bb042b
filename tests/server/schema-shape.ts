/**
 * The shape of a migrated database, in words both engines share, for the test that both engines end
 * with the same schema (data-layer.test.ts): every column with its type (mapped per engine: SQLite's
 * INTEGER is PostgreSQL's integer or bigint, TEXT COLLATE NOCASE is citext), NOT NULL and default;
 * primary keys, unique constraints and indexes with their columns, uniqueness and condition; foreign
 * keys with their ON DELETE.
 */
import type { Queryable } from '../../server/db/data';

/** Lower case, no quotes, brackets or spaces: `where "a" is not null` and `WHERE (a IS NOT NULL)` read alike. */
const squash = (text: string): string => text.replace(/["()\s]/g, '').toLowerCase();

interface SqliteColumn {
  name: string;
  type: string;
  notnull: number;
  dflt_value: string | null;
  pk: number;
}

/** The columns of a CREATE TABLE text declared COLLATE NOCASE (SQLite keeps collations in the text only). */
function nocaseColumns(createSql: string): Set<string> {
  return new Set([...createSql.matchAll(/[(,]\s*"?(\w+)"?\s[^,]*?\bcollate\s+nocase\b/gi)].map((m) => m[1] as string));
}

async function sqliteTable(q: Queryable, table: string, createSql: string): Promise<string[]> {
  const out: string[] = [];
  const columns = await q.all<SqliteColumn>(`SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info('${table}')`);
  const nocase = nocaseColumns(createSql);
  for (const c of columns) {
    const type = nocase.has(c.name) ? 'citext' : /^INTEGER$/i.test(c.type) ? 'integer' : c.type.toLowerCase();
    out.push(`${table}.${c.name} ${type}${c.notnull || c.pk ? ' not null' : ''}${c.dflt_value === null ? '' : ` default ${c.dflt_value}`}`);
  }
  const pk = columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
  if (pk.length > 0) out.push(`${table} primary key (${pk.map((c) => c.name).join(', ')})`);
  const indexes = await q.all<{ name: string; unique: number; origin: string; partial: number }>(
    `SELECT name, "unique" AS "unique", origin, partial FROM pragma_index_list('${table}')`,
  );
  for (const index of indexes) {
    if (index.origin === 'pk') continue;
    const cols = (await q.all<{ name: string }>(`SELECT name FROM pragma_index_info('${index.name}') ORDER BY seqno`)).map((r) => r.name).join(', ');
    if (index.origin === 'u') out.push(`${table} unique (${cols})`);
    else {
      const text = (await q.get<{ sql: string }>('SELECT sql FROM sqlite_master WHERE name = ?', [index.name]))?.sql ?? '';
      const where = /\bwhere\b(.*)$/is.exec(text)?.[1];
      out.push(`index ${index.name} on ${table} (${cols})${index.unique ? ' unique' : ''}${where ? ` where ${squash(where)}` : ''}`);
    }
  }
  const keys = await q.all<{ table: string; from: string; to: string; on_delete: string }>(
    `SELECT "table" AS "table", "from" AS "from", "to" AS "to", on_delete FROM pragma_foreign_key_list('${table}')`,
  );
  for (const k of keys)
    out.push(`${table}.${k.from} references ${k.table}(${k.to})${k.on_delete === 'NO ACTION' ? '' : ` on delete ${k.on_delete.toLowerCase()}`}`);
  return out;
}

export async function sqliteShape(q: Queryable, tables: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const table of tables) {
    const createSql = (await q.get<{ sql: string }>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", [table]))?.sql ?? '';
    out.push(...(await sqliteTable(q, table, createSql)));
  }
  return out.sort();
}

const PG_TYPES: Record<string, string> = { int4: 'integer', int8: 'integer', text: 'text', citext: 'citext' };

async function postgresColumns(q: Queryable): Promise<string[]> {
  const columns = await q.all<{ t: string; c: string; udt: string; nullable: string; dflt: string | null }>(
    `SELECT table_name AS t, column_name AS c, udt_name AS udt, is_nullable AS nullable, column_default AS dflt
     FROM information_schema.columns WHERE table_schema = current_schema()`,
  );
  return columns.map((r) => {
    // '[]'::text → '[]': the literal, without PostgreSQL's cast.
    const dflt = r.dflt === null ? '' : ` default ${r.dflt.replace(/::[a-z ]+$/, '')}`;
    return `${r.t}.${r.c} ${PG_TYPES[r.udt] ?? r.udt}${r.nullable === 'NO' ? ' not null' : ''}${dflt}`;
  });
}

async function postgresIndexes(q: Queryable): Promise<string[]> {
  const indexes = await q.all<{ tbl: string; name: string; uniq: number; pk: number; backed: number; def: string }>(
    `SELECT t.relname AS tbl, i.relname AS name, x.indisunique AS uniq, x.indisprimary AS pk,
       EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = x.indexrelid) AS backed, pg_get_indexdef(x.indexrelid) AS def
     FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace WHERE n.nspname = current_schema()`,
  );
  return indexes.map((r) => {
    const cols = (/USING \w+ \(([^)]*)\)/.exec(r.def)?.[1] ?? '?').replace(/"/g, '');
    if (r.pk) return `${r.tbl} primary key (${cols})`;
    if (r.backed) return `${r.tbl} unique (${cols})`;
    const where = /\bWHERE\b(.*)$/s.exec(r.def)?.[1];
    return `index ${r.name} on ${r.tbl} (${cols})${r.uniq ? ' unique' : ''}${where ? ` where ${squash(where)}` : ''}`;
  });
}

async function postgresForeignKeys(q: Queryable): Promise<string[]> {
  const keys = await q.all<{ t: string; def: string }>(
    `SELECT c.relname AS t, pg_get_constraintdef(k.oid) AS def FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace WHERE k.contype = 'f' AND n.nspname = current_schema()`,
  );
  return keys.map((k) => {
    const m = /^FOREIGN KEY \((\w+)\) REFERENCES (\w+)\((\w+)\)(?: ON DELETE (.+))?$/.exec(k.def);
    return m ? `${k.t}.${m[1]} references ${m[2]}(${m[3]})${m[4] ? ` on delete ${m[4].toLowerCase()}` : ''}` : `${k.t} ${k.def}`;
  });
}

export async function postgresShape(q: Queryable): Promise<string[]> {
  return [...(await postgresColumns(q)), ...(await postgresIndexes(q)), ...(await postgresForeignKeys(q))].sort();
}

/** PostgreSQL columns of ids and epoch-millisecond times (id, …_id, at, …_at) that are integer, not bigint (they would overflow). */
export async function narrowTimesAndIds(q: Queryable): Promise<string[]> {
  const rows = await q.all<{ t: string; c: string }>(
    `SELECT table_name AS t, column_name AS c FROM information_schema.columns
     WHERE table_schema = current_schema() AND udt_name = 'int4' AND (column_name IN ('id', 'at') OR column_name LIKE '%\\_id' OR column_name LIKE '%\\_at')`,
  );
  return rows.map((r) => `${r.t}.${r.c}`);
}
