import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { routes } from '../src/generated/catalogue';
import { budgetFor, entryKey, lazyChunks, readBudgets, readManifest, routeLoad, staticClosure, type Sizes } from './size/measure';

/**
 * `npm run size` (after `npm run build`): first-load bytes of every route (JS, CSS, fonts; raw,
 * gzip -9, brotli q11) against budgets.json, then every lazy chunk with its largest modules.
 * Writes build/size.json; the treemap of every chunk is build/treemap.html (written by the build).
 * Exits 1 when a route is over its budget.
 */
const kB = (n: number) => (n / 1000).toFixed(1);
const pad = (s: string, n: number) => s.padEnd(n);
const lpad = (s: string, n: number) => s.padStart(n);
const triple = (s: Sizes) => `${lpad(kB(s.raw), 7)} ${lpad(kB(s.gzip), 6)} ${lpad(kB(s.brotli), 6)}`;

const manifest = readManifest();
const budgets = readBudgets();

/** The largest source modules of each output chunk, from the visualiser's raw data (rendered, minified-before size). */
function modulesByChunk(): Map<string, Array<[string, number]>> {
  const out = new Map<string, Array<[string, number]>>();
  if (!existsSync('build/bundle-stats.json')) return out;
  interface Node { name: string; uid?: string; children?: Node[] }
  const stats = JSON.parse(readFileSync('build/bundle-stats.json', 'utf8')) as {
    tree: Node;
    nodeParts: Record<string, { renderedLength: number; metaUid: string }>;
    nodeMetas: Record<string, { id: string }>;
  };
  for (const chunk of stats.tree.children ?? []) {
    const byPackage = new Map<string, number>();
    const walk = (node: Node) => {
      if (node.uid) {
        const part = stats.nodeParts[node.uid];
        const id = part ? (stats.nodeMetas[part.metaUid]?.id ?? '') : '';
        const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(id)?.[1];
        const name = pkg ?? id.replace(/^.*?\/(src|widgets)\//, '$1/').replace(/^\0/, '');
        byPackage.set(name, (byPackage.get(name) ?? 0) + (part?.renderedLength ?? 0));
      }
      node.children?.forEach(walk);
    };
    walk(chunk);
    out.set(chunk.name, [...byPackage].sort((a, b) => b[1] - a[1]));
  }
  return out;
}

const seen = new Set<string>();
const loads = routes
  .filter((route) => !seen.has(route.path) && seen.add(route.path))
  .map((route) => routeLoad(manifest, route, budgets));

console.log('First load per route (kB = 1000 bytes; JS + CSS + fonts; budget on brotli)\n');
console.log(`${pad('route', 38)} ${pad('JS raw/gz/br', 22)} ${pad('CSS raw/gz/br', 22)} ${pad('total raw/gz/br', 22)} ${lpad('budget', 7)}`);
let over = 0;
for (const load of loads) {
  const budget = budgetFor(budgets, load.path);
  const ok = load.total.brotli <= budget;
  if (!ok) over++;
  console.log(
    `${pad(load.path, 38)} ${triple(load.byKind.js)}  ${triple(load.byKind.css)}  ${triple(load.total)}  ${lpad(kB(budget), 6)} ${ok ? 'ok' : 'OVER'}`,
  );
}
const fonts = loads.reduce((n, l) => n + l.byKind.font.raw, 0);
console.log(fonts === 0 ? '\nFonts: none (system font stack).' : '\nFonts are included in the totals above.');

const entryFiles = new Set(staticClosure(manifest, [entryKey(manifest), ...budgets.startup]));
const modules = modulesByChunk();
const lazy = lazyChunks(manifest, entryFiles);
console.log(`\nShared by every route: ${[...entryFiles].join(', ')}`);
console.log(`\nLazy chunks (${lazy.length}; screens, widgets, response validators, libraries; budget ${kB(budgets.lazyChunk)} kB brotli each)\n`);
console.log(`${pad('chunk', 52)} ${pad('raw/gz/br', 22)} largest modules (pre-minification bytes)`);
for (const chunk of lazy) {
  const top = (modules.get(chunk.file) ?? []).slice(0, 3).map(([name, n]) => `${name} ${kB(n)}`).join(', ');
  const flag = chunk.brotli > budgets.lazyChunk ? ' OVER' : '';
  console.log(`${pad(chunk.file, 52)} ${triple(chunk)}  ${top}${flag}`);
  if (chunk.brotli > budgets.lazyChunk) over++;
}
const entryModules = modules.get(manifest[entryKey(manifest)]?.file ?? '') ?? [];
console.log(`\nEntry chunk by package (pre-minification bytes): ${entryModules.slice(0, 12).map(([name, n]) => `${name} ${kB(n)}`).join(', ')}`);
console.log('Treemap: build/treemap.html');

mkdirSync('build', { recursive: true });
writeFileSync(
  'build/size.json',
  JSON.stringify({ budgets, routes: loads.map((l) => ({ ...l, budget: budgetFor(budgets, l.path) })), lazy }, null, 2),
);
console.log('Report: build/size.json');
if (over > 0) {
  console.error(`\n${over} budget(s) exceeded`);
  process.exit(1);
}
