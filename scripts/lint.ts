import { spawn } from 'node:child_process';

/**
 * `npm run lint`: ESLint (eslint.config.js) and Prettier's check (.prettierrc.json), side by side on
 * the two cores, each at zero warnings and each with its cache (node_modules/.cache), so a second
 * run reads only what changed. Exits 1 when either finds anything; `npm test` runs it as a stage.
 */
interface Check {
  name: string;
  args: string[];
}

const checks: Check[] = [
  { name: 'eslint', args: ['eslint', '.', '--max-warnings', '0', '--cache', '--cache-location', 'node_modules/.cache/eslint/'] },
  { name: 'prettier', args: ['prettier', '--check', '.', '--cache', '--log-level', 'warn'] },
];

function run({ name, args }: Check): Promise<{ name: string; ok: boolean; seconds: number; output: string }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npx', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('close', (code) => resolve({ name, ok: code === 0, seconds: (Date.now() - started) / 1000, output }));
    child.on('error', (error) => resolve({ name, ok: false, seconds: (Date.now() - started) / 1000, output: String(error) }));
  });
}

const results = await Promise.all(checks.map(run));
for (const { name, ok, seconds, output } of results) {
  if (output.trim()) console.log(output.trimEnd());
  console.log(`${name}: ${ok ? 'clean' : 'FAILED'} in ${seconds.toFixed(1)} s${ok || name !== 'prettier' ? '' : ' (npm run format fixes it)'}`);
}
process.exit(results.every((result) => result.ok) ? 0 : 1);
