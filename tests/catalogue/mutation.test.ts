import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkProject, reachOf } from '../../catalogue/check/check';
import { CheckCache } from '../../catalogue/check/files';
import { editsOf, mutantsOf, mutatedFiles, type Mutant } from '../../catalogue/check/mutate';

/**
 * The checker's mutation test (issue 19): every key and every string value of every screen file
 * (screens/*.json and screens/shared/outcomes.json), changed one at a time the way a person slips —
 * a letter dropped, two letters swapped, a letter's case changed — must make `npm run screens:check`
 * fail. Free text (descriptions, regular expressions) is not a reference and is left alone. The edits
 * it misses are listed with their reason in mutation-allowed.json; the score goes to
 * build/mutation-score.md. Each mutant is checked against what its file can affect (reachOf: the
 * screen, the screens that lead to it and those it leads to; `only`), so the cost grows with the
 * number of mutants, not with its square (npm run bench:mutation measures it on larger copies of
 * the catalogue); every SAMPLE-th mutant is also checked against the whole catalogue, and must get
 * the same verdict.
 *
 * `npm test` checks half of the places (keys and values), chosen by a hash of file and pointer: the
 * same half on every run, each chosen place with all its edits, in every file. That half took 40 s of
 * CPU of the unit stage's budget on two cores; FRONTDOOR_MUTATION_FULL=1 checks every place (the
 * score quoted in docs/editing-screens.md), and the allowed list is checked against the places run.
 */
const repo = resolve(__dirname, '../..');
const MIN_SCORE = 0.95;
/** Every this many mutants, the scoped verdict is compared with the whole catalogue's. */
const SAMPLE = 40;
const FULL = process.env.FRONTDOOR_MUTATION_FULL === '1';
/** In the sample: every place when FULL, else the half whose hash of file and pointer is even. */
const inSample = (file: string, pointer: string) => FULL || (createHash('sha256').update(`${file}#${pointer}`).digest()[0] ?? 0) % 2 === 0;

interface Allowed {
  file: string;
  pointer: string;
  operators?: Mutant['operator'][];
  reason: string;
}

const allowed = (JSON.parse(readFileSync(join(__dirname, 'mutation-allowed.json'), 'utf8')) as { allowed: Allowed[] }).allowed;
const isAllowed = (m: Mutant) => allowed.find((a) => a.file === m.file && a.pointer === m.pointer && (!a.operators || a.operators.includes(m.operator)));

const catalogueFiles = mutatedFiles(repo);

describe('edits', () => {
  it('drop a letter, swap two, change a case', () => {
    expect(editsOf('email')).toEqual([
      { operator: 'drop', after: 'emil' },
      { operator: 'swap', after: 'eamil' },
      { operator: 'case', after: 'Email' },
    ]);
    expect(editsOf('aa').map((e) => e.operator)).toEqual(['drop', 'case']);
  });

  it('reach keys and values, and leave notes and patterns alone', () => {
    const text = '{ "title": "login.title", "description": "notes", "schema": { "pattern": "^x$" } }';
    const pointers = new Set(mutantsOf('x.json', text).map((m) => `${m.target} ${m.pointer}`));
    expect([...pointers].sort()).toEqual(['key /description', 'key /schema', 'key /schema/pattern', 'key /title', 'value /title']);
  });
});

describe('the checker catches single-letter edits of the catalogue', { timeout: 240_000 }, () => {
  it(`at least ${MIN_SCORE * 100} %, and every edit it misses is listed with its reason`, () => {
    const cache = new CheckCache();
    const clean = checkProject({ root: repo }, { cache, locate: false });
    expect(clean.problems, 'the real catalogue must be clean for the mutation test to mean anything').toEqual([]);
    const reach = new Map(catalogueFiles.map((file) => [file, reachOf(clean.project, file)]));
    const differing: string[] = [];
    const started = Date.now();
    let total = 0;
    const missed: Mutant[] = [];
    const byKind = { key: { total: 0, caught: 0 }, value: { total: 0, caught: 0 } };
    for (const file of catalogueFiles) {
      for (const mutant of mutantsOf(file, readFileSync(join(repo, file), 'utf8'))) {
        if (!inSample(mutant.file, mutant.pointer)) continue;
        total += 1;
        byKind[mutant.target].total += 1;
        const { problems } = checkProject({ root: repo }, { cache, locate: false, only: reach.get(file), files: { [file]: mutant.text } });
        if (problems.length > 0) byKind[mutant.target].caught += 1;
        else missed.push(mutant);
        if (total % SAMPLE === 0) {
          const whole = checkProject({ root: repo }, { cache, locate: false, files: { [file]: mutant.text } }).problems.length > 0;
          if (whole !== problems.length > 0) differing.push(`${file}#${mutant.pointer} ${mutant.operator}: whole catalogue ${whole}, scoped ${!whole}`);
        }
      }
    }
    const caught = total - missed.length;
    const score = caught / total;
    const seconds = (Date.now() - started) / 1000;
    const unexplained = missed.filter((m) => !isAllowed(m));
    const stale = allowed.filter(
      (a) =>
        inSample(a.file, a.pointer) && !missed.some((m) => m.file === a.file && m.pointer === a.pointer && (!a.operators || a.operators.includes(m.operator))),
    );

    const line = (m: Mutant) =>
      `| ${m.file} | \`${m.pointer}\` | ${m.target} | ${m.operator} | \`${m.before}\` → \`${m.after}\` | ${isAllowed(m)?.reason ?? '**not explained**'} |`;
    const report = [
      '# Mutation score of the catalogue check',
      '',
      `${FULL ? 'Every key and every string value' : 'Half of the keys and string values (a fixed sample; FRONTDOOR_MUTATION_FULL=1 for all)'} of ${catalogueFiles.length} catalogue files, changed one at a time (a letter dropped, two swapped, a case changed): **${caught} of ${total} caught (${(score * 100).toFixed(1)} %)**, in ${seconds.toFixed(1)} s.`,
      '',
      `- keys: ${byKind.key.caught} of ${byKind.key.total}`,
      `- values: ${byKind.value.caught} of ${byKind.value.total}`,
      '',
      `## Not caught (${missed.length}), with why (tests/catalogue/mutation-allowed.json)`,
      '',
      '| file | pointer | target | edit | change | why harmless or out of reach |',
      '|---|---|---|---|---|---|',
      ...missed.map(line),
      '',
    ].join('\n');
    mkdirSync(join(repo, 'build'), { recursive: true });
    writeFileSync(join(repo, 'build/mutation-score.md'), report);
    console.log(
      `mutation score of the catalogue check${FULL ? '' : ' (half the places: FRONTDOOR_MUTATION_FULL=1 for all)'}: ${caught}/${total} caught (${(score * 100).toFixed(1)} %) in ${seconds.toFixed(1)} s; ${missed.length} missed, listed in build/mutation-score.md`,
    );

    expect(
      unexplained.map((m) => `${m.file}#${m.pointer} ${m.operator} "${m.before}" -> "${m.after}"`),
      'edits the check misses that mutation-allowed.json does not explain',
    ).toEqual([]);
    expect(
      stale.map((a) => `${a.file}#${a.pointer}`),
      'entries of mutation-allowed.json that no missed edit matches any more (remove them)',
    ).toEqual([]);
    expect(differing, 'mutants whose verdict differs when checked against the whole catalogue').toEqual([]);
    expect(score).toBeGreaterThanOrEqual(MIN_SCORE);
  });
});
