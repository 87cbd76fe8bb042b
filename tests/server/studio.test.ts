import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STUDIO_CSP } from '../../server/routes/studio';
import { makeProductionApp } from './helpers';
import { PEOPLE, studioServer, type StudioServer } from './studio-helpers';

/**
 * The studio's server side on a temporary copy of the catalogue: edits are checked with the edited
 * texts in place of the files, saved as drafts only when the whole catalogue is clean and only for
 * files the catalogue has, nothing answers without a signed-in studio person, and the studio does
 * not exist in production. (Review, versions and rollback: studio-review.test.ts.)
 */
let server: StudioServer;
let root: string;
let editor: { cookie: string };
const call = (options: InjectOptions) => server.call(editor, options);

beforeAll(async () => {
  server = await studioServer();
  root = server.root;
  editor = await server.as(PEOPLE.editor);
});
afterAll(async () => {
  await server.close();
});

const loginText = () => readFileSync(join(root, 'screens/login.json'), 'utf8');

describe('/dev/studio', { timeout: 30_000 }, () => {
  it('serves the studio page with its own CSP', async () => {
    const res = await call({ url: '/dev/studio' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toBe(STUDIO_CSP);
    expect(STUDIO_CSP).toContain("frame-ancestors 'none'");
  });

  it('lists screens, locale files, languages and the meta-schema', async () => {
    const body = (await call({ url: '/dev/studio/api/catalogue' })).json() as {
      screens: Array<{ id: string; text: string }>;
      languages: string[];
      locales: Record<string, string>;
      metaSchema: { title: string };
    };
    expect(body.screens.map((s) => s.id)).toContain('login');
    expect(body.languages).toContain('en-us');
    expect(Object.keys(body.locales)).toContain('en-us/login.json');
    expect(body.metaSchema.title).toBe('ScreenFile');
  });

  it('preview: a clean edit resolves the screen ($refs inlined) and lists result codes', async () => {
    const res = await call({ method: 'POST', url: '/dev/studio/api/preview', payload: { screenId: 'login', screen: loginText() } });
    const body = res.json() as {
      problems: unknown[];
      screen: { steps: Record<string, { schema: { properties: Record<string, Record<string, unknown>> } }> };
      resultCodes: Record<string, string[]>;
    };
    expect(body.problems).toEqual([]);
    expect(body.screen.steps.credentials?.schema.properties.email?.$ref).toBeUndefined();
    expect(body.resultCodes.login).toContain('MFA_REQUIRED');
  });

  it('preview: a broken edit answers its problems with position and suggestion', async () => {
    const text = loginText().replace('"ui:widget": "password"', '"ui:widget": "passwrd"');
    expect(text).not.toBe(loginText());
    const body = (await call({ method: 'POST', url: '/dev/studio/api/preview', payload: { screenId: 'login', screen: text } })).json() as {
      problems: Array<Record<string, unknown>>;
    };
    expect(body.problems).toContainEqual(
      expect.objectContaining({ file: 'screens/login.json', suggestion: 'password', line: expect.any(Number), column: expect.any(Number) }),
    );
  });

  it('a draft: a broken edit is refused and nothing is kept', async () => {
    const before = loginText();
    const res = await call({ method: 'POST', url: '/dev/studio/api/changes', payload: { screenId: 'login', screen: '{ "id": "login", ' } });
    expect(res.statusCode).toBe(422);
    expect((res.json() as { problems: Array<{ message: string }> }).problems[0]?.message).toMatch(/invalid JSON/);
    expect(loginText()).toBe(before);
    expect(((await call({ url: '/dev/studio/api/changes' })).json() as { changes: unknown[] }).changes).toEqual([]);
  });

  it('a draft: a clean edit of the screen and its texts is kept as a draft, the files stay as they are', async () => {
    const file = join(root, 'locales/en-us/login.json');
    const original = readFileSync(file, 'utf8');
    const locale = JSON.parse(original) as { title: string };
    locale.title = 'Sign in now';
    const res = await call({
      method: 'POST',
      url: '/dev/studio/api/changes',
      payload: { screenId: 'login', screen: loginText(), locales: { 'en-us/login.json': JSON.stringify(locale, null, 2) }, note: 'A livelier title' },
    });
    expect(res.statusCode, res.body).toBe(201);
    // Only the files that differ from the disk belong to the change.
    expect(res.json()).toMatchObject({
      change: { screenId: 'login', state: 'draft', author: PEOPLE.editor, note: 'A livelier title', files: ['locales/en-us/login.json'] },
      pending: [],
    });
    expect(readFileSync(file, 'utf8')).toBe(original);
    // The same texts as the disk are nothing to save.
    const same = await call({ method: 'POST', url: '/dev/studio/api/changes', payload: { screenId: 'login', screen: loginText() } });
    expect(same.statusCode).toBe(422);
    expect(same.json()).toMatchObject({ error: 'NOTHING_CHANGED' });
  });

  it('one syntax error is one problem, not one per file that refers to the screen', async () => {
    const text = loginText().replace('"initialStep": "credentials",', '"initialStep": "credentials"');
    expect(text).not.toBe(loginText());
    const body = (await call({ method: 'POST', url: '/dev/studio/api/preview', payload: { screenId: 'login', screen: text } })).json() as {
      problems: Array<{ message: string; line: number }>;
      screen: unknown;
    };
    expect(body.problems).toHaveLength(1);
    expect(body.problems[0]).toMatchObject({ file: 'screens/login.json', message: expect.stringMatching(/^invalid JSON: a comma/), line: expect.any(Number) });
    expect(body.screen).toBeNull();
  });

  it('a text only in English is a pending translation: listed, saved all the same', async () => {
    const screen = loginText().replace('"ui:title": "login.fields.password"', '"ui:title": "login.fields.secret"');
    expect(screen).not.toBe(loginText());
    const locale = JSON.parse(readFileSync(join(root, 'locales/en-us/login.json'), 'utf8')) as { fields: Record<string, string> };
    locale.fields.secret = 'Secret';
    const payload = { screenId: 'login', screen, locales: { 'en-us/login.json': JSON.stringify(locale, null, 2) } };
    const preview = (await call({ method: 'POST', url: '/dev/studio/api/preview', payload })).json() as {
      problems: unknown[];
      pending: Array<{ key: string; english: string; languages: string[] }>;
    };
    expect(preview.problems).toEqual([]);
    expect(preview.pending).toEqual([
      expect.objectContaining({
        key: 'login.fields.secret',
        english: 'Secret',
        file: 'locales/en-us/login.json',
        pointer: '/fields/secret',
        languages: expect.arrayContaining(['de-de', 'ja-jp']),
      }),
    ]);
    expect(preview.pending[0]?.languages).toHaveLength(17);
    const saved = await call({ method: 'POST', url: '/dev/studio/api/changes', payload });
    expect(saved.statusCode).toBe(201);
    expect(saved.json()).toMatchObject({ change: { state: 'draft' }, pending: [{ key: 'login.fields.secret' }] });
    // A key missing in English too is still a problem, and refuses the save.
    const typo = screen.replace('"ui:title": "login.fields.secret"', '"ui:title": "login.fields.secrte"');
    const refused = await call({ method: 'POST', url: '/dev/studio/api/changes', payload: { screenId: 'login', screen: typo } });
    expect(refused.statusCode).toBe(422);
    expect((refused.json() as { problems: Array<{ message: string }> }).problems[0]?.message).toMatch(
      /i18n key "login.fields.secrte" is missing in locales\/en-us/,
    );
  });

  it('publish: says what to run when it cannot rebuild the app', async () => {
    expect((await call({ url: '/dev/studio/api/publish' })).json()).toEqual({ state: 'off', version: 0, command: 'npm run build' });
    expect((await call({ method: 'POST', url: '/dev/studio/api/publish', headers: { origin: 'https://evil.example' } })).statusCode).toBe(403);
  });

  it('answers nobody who is not signed in as a studio person (control: the editor is answered)', async () => {
    const routes: InjectOptions[] = [
      { url: '/dev/studio/api/catalogue' },
      { url: '/dev/studio/api/changes' },
      { url: '/dev/studio/api/versions' },
      { url: '/dev/studio/api/publish' },
      { method: 'POST', url: '/dev/studio/api/preview', payload: { screenId: 'login', screen: loginText() } },
      { method: 'POST', url: '/dev/studio/api/changes', payload: { screenId: 'login', screen: loginText() } },
      { method: 'POST', url: '/dev/studio/api/versions/1/rollback' },
    ];
    for (const options of routes) {
      const res = await server.call(undefined, options);
      expect(res.statusCode, options.url as string).toBe(401);
      expect(res.json()).toMatchObject({ error: 'SIGN_IN_REQUIRED' });
      expect((await server.call({ cookie: 'fd_session=forged' }, options)).statusCode, options.url as string).toBe(401);
    }
    expect((await call({ url: '/dev/studio/api/catalogue' })).statusCode).toBe(200);
    // The page and who is signed in are open (the page then leads to the product's sign-in).
    expect((await server.call(undefined, { url: '/dev/studio' })).statusCode).toBe(200);
    expect((await server.call(undefined, { url: '/dev/studio/api/me' })).json()).toMatchObject({ person: null });
  });

  it('refuses paths outside the catalogue and cross-origin saves', async () => {
    const bad = await call({ method: 'POST', url: '/dev/studio/api/changes', payload: { screenId: '../x', screen: '{}' } });
    expect(bad.statusCode).toBe(400);
    const badLocale = await call({ method: 'POST', url: '/dev/studio/api/changes', payload: { screenId: 'login', locales: { '../../x.json': '{}' } } });
    expect(badLocale.statusCode).toBe(400);
    const cross = await call({
      method: 'POST',
      url: '/dev/studio/api/changes',
      headers: { origin: 'https://evil.example' },
      payload: { screenId: 'login', screen: loginText() },
    });
    expect(cross.statusCode).toBe(403);
  });

  it('writes only files the catalogue has: a new path is refused with 403 and nothing is written', async () => {
    const listing = () => ({ screens: readdirSync(join(root, 'screens')).sort(), zzz: existsSync(join(root, 'locales/zzz')) });
    const before = listing();
    const refused = [
      // A new language folder with a new file, a new file in a language, a new screen file.
      { screenId: 'login', locales: { 'zzz/newfile.json': '{}' } },
      { screenId: 'login', locales: { 'en-us/newfile.json': '{}' } },
      { screenId: 'newScreen', screen: loginText().replace('"id": "login"', '"id": "newScreen"') },
    ];
    for (const payload of refused) {
      for (const url of ['/dev/studio/api/changes', '/dev/studio/api/preview']) {
        const res = await call({ method: 'POST', url, payload });
        expect(res.statusCode, `${url} ${JSON.stringify(Object.keys(payload.locales ?? {}))}`).toBe(403);
        expect(res.json()).toMatchObject({ error: 'FORBIDDEN', message: expect.stringMatching(/writes only the catalogue's files: (locales|screens)\//) });
      }
    }
    expect(listing()).toEqual(before);
    expect(existsSync(join(root, 'locales/en-us/newfile.json'))).toBe(false);
  });

  it("control: an existing file, and a language's copy of a default-language file the forms create, are taken", async () => {
    // de-de lacks a file en-us has: translating a text there creates it (the text table does so).
    const file = join(root, 'locales/de-de/login.json');
    const original = readFileSync(file, 'utf8');
    rmSync(file);
    try {
      const res = await call({
        method: 'POST',
        url: '/dev/studio/api/changes',
        payload: { screenId: 'login', screen: loginText(), locales: { 'de-de/login.json': original } },
      });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ change: { files: ['locales/de-de/login.json'] } });
    } finally {
      writeFileSync(file, original);
    }
  });
});

describe('in production', { timeout: 30_000 }, () => {
  it('there is no studio', async () => {
    const prod = await makeProductionApp({ rateLimit: false });
    try {
      for (const url of ['/dev/studio', '/dev/studio/api/catalogue']) {
        const res = await prod.inject({ url, headers: { accept: 'text/html' } });
        expect(res.statusCode, url).toBe(404);
      }
      expect((await prod.inject({ method: 'POST', url: '/dev/studio/api/changes', payload: { screenId: 'login', screen: '{}' } })).statusCode).toBe(404);
      expect((await prod.inject({ method: 'POST', url: '/dev/studio/api/session', payload: { email: PEOPLE.editor, password: 'x' } })).statusCode).toBe(404);
    } finally {
      await prod.close();
    }
  });
});
