import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { checkProject, reachOf } from '../../catalogue/check/check';
import { CheckCache } from '../../catalogue/check/files';
import { mutantsOf } from '../../catalogue/check/mutate';
import { cliOptions } from '../cli-args';

/**
 * `npm run bench:mutation`: what the checker's mutation test (tests/catalogue/mutation.test.ts) costs
 * as the catalogue grows. The catalogue is copied with its screens 1, 2 and 5 times over (each copy
 * a screen of its own: its id, routes, text keys and locale files renamed, its navigations leading to
 * the copies' routes, so the copies form the same graph), and every single-letter mutant of every
 * screen file is checked as the test checks it: against what the file can affect (reachOf, `only`),
 * and with --full also against the whole catalogue, as before. CPU seconds per size, and per mutant:
 * linear cost is a flat per-mutant time. --verify checks that both ways give each mutant of the real
 * catalogue the same verdict. A script, not a test: timings vary from machine to machine.
 * Options: --copies N (largest size, default 5), --full, --verify.
 */
const repo = resolve(import.meta.dirname, '../..');
const options = cliOptions({ numbers: { copies: 5 }, flags: ['full', 'verify'] });

const screenIds = readdirSync(join(repo, 'screens'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.replace(/\.json$/, ''));

/** A catalogue with every screen `copies` times (copy 1 is the screen itself). */
function scaled(copies: number): string {
  const root = mkdtempSync(join(tmpdir(), `frontdoor-mutation-${copies}x-`));
  for (const part of ['schemas', 'screens', 'locales']) cpSync(join(repo, part), join(root, part), { recursive: true });
  const firstSegments = new Set(
    screenIds.flatMap((id) =>
      ((JSON.parse(readFileSync(join(repo, 'screens', `${id}.json`), 'utf8')) as { routes?: Array<{ path: string }> }).routes ?? []).map(
        (r) => `/${r.path.split('/')[1] ?? ''}`,
      ),
    ),
  );
  const languages = readdirSync(join(repo, 'locales'));
  for (let k = 2; k <= copies; k += 1) {
    for (const id of screenIds) {
      const copy = `${id}C${k}`;
      const text = readFileSync(join(repo, 'screens', `${id}.json`), 'utf8')
        .replace(new RegExp(`"id": "${id}"`), `"id": "${copy}"`)
        .replace(new RegExp(`"${id}\\.`, 'g'), `"${copy}.`)
        // Routes and the navigations to them: "/login" -> "/login-c2" (before a quote, a slash, a query or a placeholder).
        .replace(/"(\/[A-Za-z]+)(?=["/?{])/g, (whole, segment: string) => (firstSegments.has(segment) ? `"${segment}-c${k}` : whole));
      writeFileSync(join(root, 'screens', `${copy}.json`), text);
      for (const lang of languages) {
        const file = join(repo, 'locales', lang, `${id}.json`);
        try {
          writeFileSync(join(root, 'locales', lang, `${copy}.json`), readFileSync(file, 'utf8'));
        } catch {
          // A language without this screen's texts: pending there, as in the real catalogue.
        }
      }
    }
  }
  return root;
}

interface Run {
  screens: number;
  mutants: number;
  scopedSeconds: number;
  fullSeconds?: number;
  mismatches: number;
}

const cpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

function run(root: string, full: boolean, verify: boolean): Run {
  const cache = new CheckCache();
  const baseline = checkProject({ root }, { cache, locate: false });
  if (baseline.problems.length > 0) throw new Error(`the scaled catalogue at ${root} is not clean: ${JSON.stringify(baseline.problems.slice(0, 3))}`);
  const files = [
    ...readdirSync(join(root, 'screens'))
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => `screens/${f}`),
    'screens/shared/outcomes.json',
  ];
  const mutants = files.flatMap((file) => mutantsOf(file, readFileSync(join(root, file), 'utf8')));
  const only = new Map(files.map((file) => [file, reachOf(baseline.project, file)]));
  const verdicts: boolean[] = [];
  let started = cpu();
  for (const m of mutants)
    verdicts.push(checkProject({ root }, { cache, locate: false, only: only.get(m.file), files: { [m.file]: m.text } }).problems.length > 0);
  const scopedSeconds = cpu() - started;
  let fullSeconds: number | undefined;
  let mismatches = 0;
  if (full || verify) {
    started = cpu();
    mutants.forEach((m, i) => {
      const caught = checkProject({ root }, { cache, locate: false, files: { [m.file]: m.text } }).problems.length > 0;
      if (caught !== verdicts[i]) {
        mismatches += 1;
        if (mismatches <= 10)
          console.log(`  differs: ${m.file}#${m.pointer} ${m.operator} "${m.before}" -> "${m.after}": full ${caught}, scoped ${verdicts[i]}`);
      }
    });
    fullSeconds = cpu() - started;
  }
  return { screens: files.length - 1, mutants: mutants.length, scopedSeconds, fullSeconds, mismatches };
}

const sizes = [1, 2, options.copies].filter((n, i, all) => all.indexOf(n) === i && n <= options.copies);
const runs: Run[] = [];
for (const copies of sizes) {
  const root = copies === 1 ? repo : scaled(copies);
  try {
    const result = run(root, options.full, options.verify && copies === 1);
    runs.push(result);
    const per = (s: number) => `${((s / result.mutants) * 1000).toFixed(2)} ms`;
    console.log(
      `${result.screens} screens, ${result.mutants} mutants: ${result.scopedSeconds.toFixed(1)} s CPU (${per(result.scopedSeconds)} a mutant)` +
        (result.fullSeconds !== undefined ? `; whole catalogue each time: ${result.fullSeconds.toFixed(1)} s (${per(result.fullSeconds)})` : '') +
        (options.verify && copies === 1 ? `; verdicts that differ: ${result.mismatches}` : ''),
    );
  } finally {
    if (copies !== 1) rmSync(root, { recursive: true, force: true });
  }
}
const first = runs[0];
const last = runs.at(-1);
if (first && last && last !== first)
  console.log(
    `growth from ${first.screens} to ${last.screens} screens: mutants x${(last.mutants / first.mutants).toFixed(1)}, time x${(last.scopedSeconds / first.scopedSeconds).toFixed(1)} ` +
      `(linear: the same factor; per mutant x${(last.scopedSeconds / last.mutants / (first.scopedSeconds / first.mutants)).toFixed(2)})`,
  );
if (runs.some((r) => r.mismatches > 0)) process.exit(1);
