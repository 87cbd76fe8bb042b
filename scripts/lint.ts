import { runAll, type Task } from './parallel';

/**
 * `npm run lint`: ESLint (eslint.config.js) and Prettier's check (.prettierrc.json), side by side on
 * the two cores, each at zero warnings and each with its cache (node_modules/.cache), so a second
 * run reads only what changed. Exits 1 when either finds anything; `npm test` runs it as a stage
 * (beside the build, which it does not need).
 */
const checks: Task[] = [
  { name: 'eslint', command: 'npx', args: ['eslint', '.', '--max-warnings', '0', '--cache', '--cache-location', 'node_modules/.cache/eslint/'] },
  { name: 'prettier', command: 'npx', args: ['prettier', '--check', '.', '--cache', '--log-level', 'warn'] },
];

const results = await runAll(checks, checks.length);
for (const { name, ok, seconds, output } of results) {
  if (output.trim()) console.log(output.trimEnd());
  console.log(`${name}: ${ok ? 'clean' : 'FAILED'} in ${seconds.toFixed(1)} s${ok || name !== 'prettier' ? '' : ' (npm run format fixes it)'}`);
}
process.exit(results.every((result) => result.ok) ? 0 : 1);
