import { existsSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { choicesOf, formDataOf, withValues } from '../../server/spa/forms';
import type { StepSpec } from '../../catalogue/language/types';
import { makeApp, PASSWORD } from './helpers';

/**
 * Plain forms (server/spa/forms.ts, issue 27) against the real build (npm test builds first: its
 * prerendered pages and .vite/forms.json) and the demo tenant: a form post without JavaScript runs
 * the same operation as the app and answers the next page or the spec's text. Security: a cross-site
 * post is refused (with the same-site control beside it), a return_to elsewhere is not followed, a
 * password is never written back into a page.
 */
const BUILT = existsSync('dist/app/.vite/forms.json');
let app: FastifyInstance;

beforeAll(async () => {
  if (BUILT) app = await makeApp({ staticDir: 'dist/app', rateLimit: false });
});
afterAll(async () => {
  await app?.close();
});

const SAME_SITE = { host: 'localhost:8080', origin: 'http://localhost:8080', 'sec-fetch-site': 'same-origin', accept: 'text/html' };

function postForm(url: string, fields: Record<string, string>, headers: Record<string, string> = SAME_SITE) {
  return app.inject({
    method: 'POST',
    url,
    headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  });
}

/** The text of the page's form error (role=alert with the error class), tags dropped. */
const alertText = (html: string) =>
  /class="fd-alert[^"]*fd-form-error"[^>]*>(.*?)<\/div>/s
    .exec(html)?.[1]
    ?.replace(/<[^>]+>/g, '')
    .trim();

describe.skipIf(!BUILT)('plain forms against the build', () => {
  it('signs a demo account in: 303 to the landing page with the session cookie', async () => {
    const res = await postForm('/login', { email: 'nomfa@demo.test', password: PASSWORD });
    expect(res.statusCode).toBe(303);
    // The app goes on through the passkey offer (screens/shared/outcomes.json signedIn), which without
    // scripts only signs in: straight to the landing page.
    expect(res.headers.location).toBe('/app/');
    expect(String(res.headers['set-cookie'])).toMatch(/fd_session=[^;]+;.*HttpOnly/);
    // The session is real.
    const session = res.cookies.find((cookie) => cookie.name === 'fd_session');
    const me = await app.inject({
      method: 'GET',
      url: '/ws/account/session',
      cookies: { fd_session: session?.value ?? '' },
      headers: { host: 'localhost:8080' },
    });
    expect(me.json()).toMatchObject({ userType: 'TECHNICIAN' });
  });

  it('an end user lands on /eus/; a same-site return_to is followed, another site is not', async () => {
    expect((await postForm('/login', { email: 'user@demo.test', password: PASSWORD })).headers.location).toBe('/eus/');
    expect((await postForm('/login?return_to=%2Fapp%2Fdevices%3Fx%3D1', { email: 'nomfa@demo.test', password: PASSWORD })).headers.location).toBe(
      '/app/devices?x=1',
    );
    for (const evil of ['//evil.example/x', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)']) {
      const res = await postForm(`/login?return_to=${encodeURIComponent(evil)}`, { email: 'nomfa@demo.test', password: PASSWORD });
      expect(res.headers.location, evil).toBe('/app/');
    }
  });

  it('a refused sign-in is the form again with the spec text and the email, never the password, and no script', async () => {
    const res = await postForm('/login', { email: 'nomfa@demo.test', password: 'wrong-password' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(alertText(res.body)).toBe('Invalid username/password. Please contact your system administrator for assistance.');
    expect(res.body).toMatch(/<input[^>]*name="email"[^>]*value="nomfa@demo.test"/);
    expect(res.body).not.toContain('wrong-password');
    expect(res.body).not.toMatch(/<script/);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it("in the visitor's language, escaped", async () => {
    const res = await postForm('/login', { email: '"><img src=x onerror=alert(1)>@x.test', password: 'x' }, { ...SAME_SITE, 'accept-language': 'de-DE' });
    expect(alertText(res.body)).toBe('Ungültiger Benutzername oder ungültiges Passwort. Bitte wenden Sie sich an Ihren Systemadministrator.');
    expect(res.body).not.toContain('<img src=x');
    expect(res.body).toContain('value="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;@x.test"');
  });

  it('empty required fields say so as the browser would, and call nothing', async () => {
    const res = await postForm('/login', { email: '', password: '' });
    expect(alertText(res.body)).toBe('Email field can not be empty Password field can not be empty');
  });

  it('MFA goes on to /mfa with the state the app would carry', async () => {
    const res = await postForm('/login?return_to=%2Fapp%2F', { email: 'tech@demo.test', password: PASSWORD });
    expect(res.statusCode).toBe(303);
    const location = new URL(String(res.headers.location), 'http://localhost');
    expect(location.pathname).toBe('/mfa');
    const state = JSON.parse(Buffer.from(location.searchParams.get('state') ?? '', 'base64url').toString()) as Record<string, unknown>;
    expect(state).toMatchObject({ mfaType: 'TOTP', available_mfa: ['TOTP'], returnTo: '/app/' });
    expect(typeof state.loginToken).toBe('string');
  });

  it('a single sign-on account is sent to its identity provider (SSO_REQUIRED, then saml-init, as the app resubmits)', async () => {
    const res = await postForm('/login', { email: 'sso@demo.test', password: '' });
    expect(res.statusCode).toBe(303);
    expect(String(res.headers.location)).toMatch(/\/dev\/idp|SAMLRequest=/);
  });

  it('a demanded bot check says it needs JavaScript', async () => {
    const res = await postForm('/login', { email: 'captcha-fail@demo.test', password: PASSWORD });
    expect(alertText(res.body)).toBe('To continue, a check that you are not a robot runs in your browser. Please turn on JavaScript, then try again.');
  });

  it('resend activation: its sent page with the message, or the spec text', async () => {
    const sent = await postForm('/requestActivation', { email: 'inactive@demo.test' });
    expect(sent.statusCode).toBe(200);
    expect(sent.body).toContain('Activation email sent.');
    expect(sent.body).toMatch(/data-step="sent"/);
    const already = await postForm('/requestActivation', { email: 'tech@demo.test' });
    expect(alertText(already.body)).toBe('The specified email already has an activated account.');
  });

  it('the reset request by email: its page and message', async () => {
    const res = await postForm('/resetPassword', { verifyBy: 'EMAIL', email: 'nomfa@demo.test' });
    expect(res.body).toMatch(/data-step="emailSent"/);
    expect(res.body).toContain('Password recovery email sent');
  });

  it('a cross-site post is refused; the same post from the site passes', async () => {
    const evil = await postForm(
      '/login',
      { email: 'nomfa@demo.test', password: PASSWORD },
      { ...SAME_SITE, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    );
    expect(evil.statusCode).toBe(403);
    expect(evil.headers['set-cookie']).toBeUndefined();
    expect((await postForm('/login', { email: 'nomfa@demo.test', password: PASSWORD })).statusCode).toBe(303);
  });

  it('another page of the app goes back to itself; unknown paths and the API stay 404', async () => {
    const register = await postForm('/register', { companyName: 'Acme' });
    expect(register.statusCode).toBe(303);
    expect(register.headers.location).toBe('/register');
    expect((await postForm('/no/such/page.txt', {})).statusCode).toBe(404);
    const api = await app.inject({ method: 'POST', url: '/ws/account/no-such', headers: { ...SAME_SITE, 'content-type': 'application/json' }, payload: '{}' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ error: 'NOT_FOUND' });
  });
});

describe('form data and values', () => {
  const spec = {
    schema: {
      type: 'object',
      properties: {
        email: { type: 'string' },
        password: { type: 'string' },
        staySignedIn: { type: 'boolean' },
        count: { type: 'integer' },
        verifyBy: { type: 'string', enum: ['EMAIL', 'TEXT'] },
      },
    },
  } as unknown as StepSpec;

  it('types the posted fields by the schema and takes nothing else', () => {
    expect(formDataOf(spec, { email: 'a@b.c', password: '', staySignedIn: 'on', count: '3', verifyBy: 'TEXT', extra: 'x', constructor: 'y' })).toEqual({
      email: 'a@b.c',
      staySignedIn: true,
      count: 3,
      verifyBy: 'TEXT',
    });
    // rjsf's radios post the index of their choice; one out of range, or no choice, is nothing.
    expect(formDataOf(spec, { verifyBy: '1' })).toMatchObject({ verifyBy: 'TEXT' });
    expect(formDataOf(spec, { verifyBy: '0' })).toMatchObject({ verifyBy: 'EMAIL' });
    expect(formDataOf(spec, { verifyBy: '2' })).not.toHaveProperty('verifyBy');
    expect(formDataOf(spec, { verifyBy: 'SMS' })).not.toHaveProperty('verifyBy');
    expect(formDataOf(spec, {})).toEqual({ staySignedIn: false });
    expect(formDataOf(spec, { email: ['a@b.c', 'last@b.c'] })).toMatchObject({ email: 'last@b.c' });
  });

  it('writes values back into inputs, escaped; never a password or a hidden field', () => {
    const markup =
      '<input id="e" name="email" type="email" value=""/><input name="password" type="password" value=""/><input type="checkbox" name="staySignedIn"/>' +
      '<input type="radio" name="verifyBy" value="EMAIL" checked=""/><input type="radio" name="verifyBy" value="TEXT"/><input type="hidden" name="count" value=""/>';
    const out = withValues(markup, { email: '"<b>"', password: 'secret', staySignedIn: true, verifyBy: 'TEXT', count: 9 });
    expect(out).toContain('name="email" type="email" value="&quot;&lt;b&gt;&quot;"');
    expect(out).not.toContain('secret');
    expect(out).toContain('<input checked="" type="checkbox" name="staySignedIn"/>');
    expect(out).toContain('<input type="radio" name="verifyBy" value="EMAIL"/>');
    expect(out).toContain('<input checked="" type="radio" name="verifyBy" value="TEXT"/>');
    expect(out).toContain('<input type="hidden" name="count" value=""/>');
    // Preact writes an empty value bare; a word "value" inside another attribute is left alone.
    expect(withValues('<input name="email" aria-label="a value here" value maxlength="9"/>', { email: 'a@b.c' })).toBe(
      '<input name="email" aria-label="a value here" value="a@b.c" maxlength="9"/>',
    );
    // rjsf's radios, valued by index: the chosen one checked again.
    const radios = '<input type="radio" name="verifyBy" value="0" checked=""/><input type="radio" name="verifyBy" value="1"/>';
    expect(withValues(radios, { verifyBy: 'TEXT' }, choicesOf(spec))).toBe(
      '<input type="radio" name="verifyBy" value="0"/><input checked="" type="radio" name="verifyBy" value="1"/>',
    );
  });
});
