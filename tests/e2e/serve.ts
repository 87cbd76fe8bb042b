import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The reference server of one Playwright worker (playwright.config.ts starts one per worker, on the
 * port in PORT): `server/main.ts` serving its own copy of the built app, build/e2e/server-<port>/app.
 * A studio test that saves a screen rebuilds the app its server serves (server/routes/studio/publish.ts):
 * with a copy each, that rebuild never changes the app under another worker's tests. The
 * pseudo-locale the build wrote is copied beside it (servePseudoLocale in screen-states.ts reads
 * that copy), as the studio's rebuild rewrites src/generated meanwhile.
 */
const port = process.env.PORT ?? '';
if (!/^\d+$/.test(port)) throw new Error('tests/e2e/serve.ts: PORT is not set');
const dir = resolve(`build/e2e/server-${port}`);
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
cpSync('dist/app', `${dir}/app`, { recursive: true });
cpSync('src/generated/pseudo/en-xa.json', `${dir}/en-xa.json`);
process.env.STATIC_DIR = `${dir}/app`;
await import('../../server/main');
