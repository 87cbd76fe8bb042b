import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sqlInSource, sqlUnder } from './sql-scan';

/**
 * The data layer's rule (docs/architecture.md, docs/data-layer.md): SQL is written in server/db/ only,
 * in the stores' typed methods; services and routes call those. The scan reads every string and
 * template literal of server/ with the TypeScript compiler (sql-scan.ts), so a statement over several
 * lines or assembled from pieces counts too.
 */
const repo = path.resolve(__dirname, '../..');

describe('no SQL outside server/db/', () => {
  it('no .ts file under server/ outside server/db/ holds an SQL statement', () => {
    const found = sqlUnder(repo, 'server', ['server/db']).map((f) => `${f.file}:${f.line}: ${f.text}`);
    expect(found, `move these statements into a store of server/db/ (docs/data-layer.md):\n${found.join('\n')}`).toEqual([]);
  });

  it('the scan sees the stores: server/db/ holds the statements', () => {
    expect(sqlUnder(repo, 'server/db').length).toBeGreaterThan(50);
  });

  it('finds statements on one line, over several lines, with substitutions, in pieces, and in lower case', () => {
    const source = [
      "const a = 'SELECT id FROM users WHERE email = ?';",
      'const b = `UPDATE sessions',
      '  SET expires_at = ? WHERE id = ?`;',
      'const c = `DELETE FROM ${table} WHERE expires_at < ?`;',
      "const d = 'INSERT INTO ' + table + ' (a) VALUES (?)';",
      "const e = 'select count(*) as n from outbox where 1 = 1';",
      'const f = sql`CREATE TABLE t (id INTEGER)`;',
      'const g = `ALTER TABLE ${name} ADD COLUMN x TEXT`;',
      "q.get('SELECT 1 AS ok');",
    ].join('\n');
    expect(sqlInSource('x.ts', source).map((f) => f.line)).toEqual([1, 2, 4, 5, 6, 7, 8, 9]);
  });

  it('leaves comments and plain words alone', () => {
    const source = [
      '// SELECT id FROM users: a comment names a statement',
      '/** DELETE FROM sessions when it expires */',
      "const a = 'Select a method from the list';",
      "const b = 'update your settings, then delete from your phone';",
      "const c = 'insert into the slot';",
      "const d = 'created the table';",
    ].join('\n');
    expect(sqlInSource('x.ts', source)).toEqual([]);
  });
});
