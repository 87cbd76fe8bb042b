import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The shipped bundle must not compile schemas in the browser: no `new Function`, and none of
 * ajv's compiler (its strict-mode and schema-registry messages are unique to that code). The CSP
 * e2e test proves the same at run time. Runs on the output of `npm run build` (npm test builds first).
 */
const assets = join(process.cwd(), 'dist/app/assets');

describe('the built app bundle', () => {
  it('exists (run `npm run build` first)', () => {
    expect(existsSync(assets), 'dist/app/assets is missing: run npm run build').toBe(true);
  });

  const files = existsSync(assets) ? readdirSync(assets).filter((f) => f.endsWith('.js')) : [];

  it('has JavaScript chunks to inspect', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it.each(files)('%s contains no runtime schema compilation', (file) => {
    const code = readFileSync(join(assets, file), 'utf8');
    expect(code).not.toContain('new Function');
    expect(code).not.toMatch(/strict mode: unknown keyword/);
    expect(code).not.toMatch(/schema with key or id "/);
  });
});
