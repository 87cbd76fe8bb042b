import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { watch } from 'node:fs';

/**
 * `npm run dev`: the app with hot reload and the reference server with the demo tenant, side by side.
 * Vite's dev server (http://localhost:5173, VITE_PORT to change it; its proxy sends /ws, /account,
 * /dev … to the server) and `tsx watch server/main.ts --demo` (http://localhost:8080, PORT to change it). Before they start:
 * the validators package and the catalogue's generated code (npm run build does the same); while
 * they run, an edit of screens/, locales/ or schemas/ checks and generates again, so the page
 * reloads with it (a broken edit says where, and the last good code stays).
 */
const node = process.execPath;

function prepare(): boolean {
  const validators = spawnSync(node, ['packages/validators/scripts/build.mjs'], { stdio: 'inherit' });
  return validators.status === 0 && generate();
}

function generate(): boolean {
  return spawnSync(node, ['--import', 'tsx', 'scripts/generate.ts'], { stdio: 'inherit' }).status === 0;
}

if (!prepare()) {
  console.error('dev: the catalogue check failed; fix the file it names and run npm run dev again');
  process.exit(1);
}

const children: ChildProcess[] = [
  spawn(node, ['node_modules/tsx/dist/cli.mjs', 'watch', '--clear-screen=false', 'server/main.ts', '--demo'], { stdio: 'inherit' }),
  spawn(node, ['node_modules/vite/bin/vite.js', ...(process.env.VITE_PORT ? ['--port', process.env.VITE_PORT, '--strictPort'] : [])], { stdio: 'inherit' }),
];

let timer: NodeJS.Timeout | undefined;
const watchers = ['screens', 'locales', 'schemas'].map((dir) =>
  watch(dir, { recursive: true }, () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      console.log('dev: the catalogue changed, checking and generating again');
      generate();
    }, 300);
  }),
);

const stop = (code: number) => {
  watchers.forEach((watcher) => watcher.close());
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  process.exit(code);
};
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
for (const child of children) child.on('exit', (code) => stop(code ?? 1));
