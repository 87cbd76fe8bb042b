import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * The server compiled to JavaScript for production (`node dist/server/main.js`, no tsx at run time):
 * every server/**\/*.ts transpiled file by file (TypeScript's transpileModule: the tree is already
 * type-checked by `npm run typecheck`, and every file is an isolated module), the migrations too, and
 * every other file (branding images) copied. The server's relative imports already end in .js; the
 * catalogue module it uses (the $ref inliner, the studio's check) and the build work its studio starts
 * (tooling/: the publish and the picture taker, which run their work in child processes from the
 * sources) are compiled beside it into dist/catalogue and dist/tooling, their extensionless relative
 * imports given their .js.
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_SRC = join(ROOT, 'server');
export const SERVER_OUT = join(ROOT, 'dist/server');
/** Compiled beside the server, their extensionless relative imports given their .js: the catalogue module it uses and the build work its studio starts (tooling/). */
const SHARED_SRC = ['catalogue', 'tooling'].map((dir) => join(ROOT, dir));

/** './x' → './x.js' (a relative specifier without an extension), in static and dynamic imports and re-exports. */
function withJsExtensions(code: string): string {
  return code.replace(/(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]+?)\2/g, (whole, lead: string, quote: string, spec: string) =>
    /\.(m?js|json|cjs)$/.test(spec) ? whole : `${lead}${quote}${spec}.js${quote}`,
  );
}

const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  sourceMap: true,
  isolatedModules: true,
  esModuleInterop: true,
};

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)]));
}

/** Compiles into outDir (default dist/server; it must lie inside the repository, which the server finds its schemas/ from). */
export function buildServer(outDir: string = SERVER_OUT): { compiled: number; copied: number } {
  rmSync(outDir, { recursive: true, force: true });
  for (const dir of SHARED_SRC) rmSync(join(dirname(outDir), relative(ROOT, dir)), { recursive: true, force: true });
  let compiled = 0;
  let copied = 0;
  const problems: string[] = [];
  const sources = [
    ...files(SERVER_SRC).map((file) => ({ file, rel: relative(SERVER_SRC, file), out: join(outDir, relative(SERVER_SRC, file)), rewrite: false })),
    ...SHARED_SRC.flatMap((dir) =>
      files(dir).map((file) => ({ file, rel: relative(ROOT, file), out: join(dirname(outDir), relative(ROOT, file)), rewrite: true })),
    ),
  ];
  for (const { file, rel, out, rewrite } of sources) {
    mkdirSync(dirname(out), { recursive: true });
    if (file.endsWith('.ts') && !file.endsWith('.d.ts')) {
      const result = ts.transpileModule(readFileSync(file, 'utf8'), { compilerOptions: OPTIONS, fileName: file, reportDiagnostics: true });
      for (const d of result.diagnostics ?? []) problems.push(`${rel}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
      const js = out.replace(/\.ts$/, '.js');
      writeFileSync(js, rewrite ? withJsExtensions(result.outputText) : result.outputText);
      if (result.sourceMapText) writeFileSync(`${js}.map`, result.sourceMapText);
      compiled++;
    } else {
      copyFileSync(file, out);
      copied++;
    }
  }
  if (problems.length) throw new Error(`server build failed:\n${problems.join('\n')}`);
  return { compiled, copied };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { compiled, copied } = buildServer();
  console.log(`server compiled into dist/server, dist/catalogue and dist/tooling (${compiled} modules, ${copied} files copied)`);
}
