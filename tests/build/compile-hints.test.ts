import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_DIR, entryKey, readManifest } from '../../scripts/size/measure';
import { COMPILE_HINT, compileHints } from '../../scripts/compile-hints';

/**
 * The entry chunk carries V8's compile hint as its first line (scripts/compile-hints.ts), and only
 * the entry chunk: a lazy chunk compiled eagerly would be compile work for code that may never run.
 */
type Chunk = { type: 'chunk'; isEntry: boolean; name: string; fileName: string; code: string };

/** The plugin's generateBundle, run as vite runs it after its own (the `__vite__mapDeps` line). */
function generate(chunks: Chunk[]): Chunk[] {
  const bundle = Object.fromEntries(chunks.map((chunk) => [chunk.fileName, { ...chunk }]));
  const hook = compileHints('index').generateBundle as { handler: (this: unknown, options: unknown, bundle: unknown) => void };
  hook.handler.call(
    {
      error(message: string): never {
        throw new Error(message);
      },
    },
    {},
    bundle,
  );
  return Object.values(bundle);
}

const chunk = (name: string, code: string, isEntry = true): Chunk => ({ type: 'chunk', isEntry, name, fileName: `assets/${name}.js`, code });
const MAP_DEPS = 'const __vite__mapDeps=(i)=>i;';

describe('the compile hint is the first line of the entry chunk', () => {
  it("moves it back above vite's preload list, and leaves a chunk that starts with it as it is (the control)", () => {
    const [moved, kept] = generate([chunk('index', `${MAP_DEPS}\n${COMPILE_HINT}\nimport"./a.js";`), chunk('index-2', `${COMPILE_HINT}\nrun();`)]);
    expect(moved?.code).toBe(`${COMPILE_HINT}\n${MAP_DEPS}\nimport"./a.js";`);
    expect(kept?.code).toBe(`${COMPILE_HINT}\nrun();`);
  });

  it('touches no other chunk, and fails a build whose entry lost the hint', () => {
    const lazy = chunk('index', `${MAP_DEPS}\nlazy();`, false);
    expect(generate([lazy])[0]?.code).toBe(lazy.code);
    expect(() => generate([chunk('index', `${MAP_DEPS}\nrun();`)])).toThrow(/compile hint is missing/);
  });

  it('the postBanner names the entry only', () => {
    const options = (compileHints('index').outputOptions as (this: unknown, o: object) => { postBanner: (c: object) => string }).call({}, {});
    expect(options.postBanner({ isEntry: true, name: 'index' })).toBe(COMPILE_HINT);
    expect(options.postBanner({ isEntry: false, name: 'login' })).toBe('');
  });

  it('the last build: the entry chunk starts with it, no other chunk has it', () => {
    const manifest = readManifest();
    const entry = manifest[entryKey(manifest)]!.file;
    const scripts = [...new Set(Object.values(manifest).map((c) => c.file))].filter((file) => file.endsWith('.js'));
    const hinted = scripts.filter((file) => readFileSync(join(APP_DIR, file), 'utf8').includes(COMPILE_HINT));
    expect(readFileSync(join(APP_DIR, entry), 'utf8').startsWith(`${COMPILE_HINT}\n`)).toBe(true);
    expect(hinted).toEqual([entry]);
  });
});
