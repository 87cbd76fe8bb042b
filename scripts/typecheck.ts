import { availableParallelism } from 'node:os';
import { runAll, type Task } from './parallel';

/**
 * `npm run typecheck`: TypeScript per environment — tsconfig.browser.json (DOM, no Node),
 * tsconfig.node.json (Node, no DOM), tsconfig.tests.json (both) and the validators package — as four
 * tsc runs, two at a time (each tsc uses one core; the largest first). Each keeps its incremental
 * state in node_modules/.cache/tsc. Exits 1 when any finds an error; `npm test` runs it as a stage.
 */
const tsc = (project: string, ...extra: string[]): Task => ({ name: project, command: 'npx', args: ['tsc', ...extra, '-p', project] });
const projects: Task[] = [
  tsc('tsconfig.tests.json'),
  tsc('tsconfig.node.json'),
  tsc('tsconfig.browser.json'),
  tsc('packages/validators/tsconfig.json', '--noEmit'),
];

const results = await runAll(projects, Math.max(2, availableParallelism()));
for (const { name, ok, seconds, output } of results) {
  if (output.trim()) console.log(output.trimEnd());
  console.log(`tsc -p ${name}: ${ok ? 'no errors' : 'FAILED'} in ${seconds.toFixed(1)} s`);
}
process.exit(results.every((result) => result.ok) ? 0 : 1);
