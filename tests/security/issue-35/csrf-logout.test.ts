/**
 * The attack of issue 35, finding 2 (cross-site "sign out everywhere"), replayed against the real
 * server listening on loopback: request targets are sent byte for byte (node's http client does not
 * normalise them), so every encoding reaches fastify's router as an attacker would send it. For each
 * payload the suite first learns what the router routes (a same-origin GET: did the session end?),
 * then proves that no cross-site GET, no HEAD (cross-site or same-site) and no old browser's
 * cross-site navigation ends a session. The control: the app's own logout still signs out.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, PASSWORD } from '../../server/helpers';
import { body, client, figure, reportFigures } from '../attack-helpers';

/** Request targets for GET /ws/account/logout, written as the router might decode, fold or ignore them. */
const PAYLOADS = [
  '/ws/account/logout',
  '/ws/account/logou%74',
  '/ws/account/logou%2574',
  '/ws/account/%6Cogout',
  '/ws/account/%6cogout',
  '/w%73/account/logout',
  '/%77%73/%61%63%63%6f%75%6e%74/%6c%6f%67%6f%75%74',
  '/ws/account%2Flogout',
  '/ws/account%2flogout',
  '/ws%2Faccount%2Flogout',
  '/ws/account/logout/',
  '/ws/account/logou%74/',
  '//ws/account/logout',
  '/ws//account/logout',
  '/ws/account//logout',
  '/ws/account/./logout',
  '/ws/account/x/../logout',
  '/ws/account/%2e/logout',
  '/ws/account/x/%2e%2e/logout',
  '/ws/account/x/%2E%2E/logout',
  '/WS/account/logout',
  '/ws/account/LOGOUT',
  '/ws/account/Logou%74',
  '/ws/account/logout;x=1',
  '/ws/account/logout;',
  '/ws/account/logout%3B',
  '/ws/account/logout%3Bx',
  '/ws/account/logout%23',
  '/ws/account/logout%20',
  '/ws/account/logout%09',
  '/ws/account/logout%00',
  '/ws/account/logout.',
  '/ws/account/logout%2e',
  '/ws/account/logout#x',
];
const ALL = (target: string) => (target.includes('#') ? target.replace('#', '?sessions=all#') : `${target}?sessions=all`);

/** How each attack arrives: a link on another site, a HEAD from anywhere, an old browser's navigation. */
const ATTACKS: Array<{ name: string; method: 'GET' | 'HEAD'; headers: Record<string, string> }> = [
  {
    name: 'cross-site link',
    method: 'GET',
    headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document', accept: 'text/html,*/*;q=0.8' },
  },
  { name: 'cross-site HEAD', method: 'HEAD', headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', accept: '*/*' } },
  { name: 'same-site HEAD', method: 'HEAD', headers: { 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'no-cors', accept: '*/*' } },
  { name: 'same-origin HEAD', method: 'HEAD', headers: { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', accept: 'application/json' } },
  { name: 'old browser, cross-site link', method: 'GET', headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } },
];

let app: FastifyInstance;
let port: number;

beforeAll(async () => {
  app = await makeApp({ rateLimit: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await app?.close();
});

/** One request with this exact target on a socket of its own; its status and Cache-Control. */
function raw(
  method: string,
  target: string,
  headers: Record<string, string>,
): Promise<{ status: number; cacheControl: string | undefined; page: boolean; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: target, headers: { host: `localhost:${port}`, ...headers } }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += String(chunk)));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          cacheControl: res.headers['cache-control'],
          page: /text\/html/.test(res.headers['content-type'] ?? ''),
          body: text,
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** A signed-in browser of nomfa@demo.test: its session cookie header. */
async function signedIn(): Promise<string> {
  const browser = client(app);
  expect(body(await browser.post('/ws/account/login', { email: 'nomfa@demo.test', password: PASSWORD }))).toMatchObject({ resultCode: 'SUCCESS' });
  return `fd_session=${browser.cookies.get('fd_session')}`;
}

const alive = async (cookie: string) => (await app.inject({ url: '/ws/account/session', headers: { cookie } })).statusCode === 200;

describe('2. cross-site "sign out everywhere"', () => {
  it('the finding: a cross-site link to /ws/account/logou%74?sessions=all ends nothing; the same call from the app signs out everywhere', async () => {
    const victim = await signedIn();
    const otherDevice = await signedIn();
    const attack = await raw('GET', ALL('/ws/account/logou%74'), { ...ATTACKS[0]!.headers, cookie: victim });
    expect(attack.status).toBe(403);
    expect(JSON.parse(attack.body)).toEqual({ error: 'CSRF', message: 'Cross-site request refused' });
    const ended = (await Promise.all([victim, otherDevice].map(alive))).filter((up) => !up).length;
    expect(ended).toBe(0);
    figure(2, 'cross-site GET /ws/account/logou%74?sessions=all: status, sessions ended', '200, all', `${attack.status}, ${ended}`);
    // Control: the app's call (same origin, as its fetch sends it) ends every session of the account.
    const own = await raw('GET', ALL('/ws/account/logou%74'), {
      'sec-fetch-site': 'same-origin',
      'sec-fetch-mode': 'cors',
      accept: 'application/json',
      cookie: victim,
    });
    expect(own.status).toBe(200);
    expect(own.cacheControl).toBe('no-store');
    expect(await alive(victim)).toBe(false);
    expect(await alive(otherDevice)).toBe(false);
    figure(2, 'Cache-Control of the logout answer at /ws/account/logou%74', 'none', String(own.cacheControl));
  });

  it('HEAD never signs out: 405 from anywhere, same origin included', async () => {
    const victim = await signedIn();
    const sameSite = await raw('HEAD', ALL('/ws/account/logout'), { ...ATTACKS[2]!.headers, cookie: victim });
    expect(sameSite.status).toBe(405);
    expect(await alive(victim)).toBe(true);
    figure(2, 'HEAD /ws/account/logout?sessions=all from a same-site page: status, sessions ended', '200, all', `${sameSite.status}, 0`);
    // Control: HEAD of a GET that changes nothing is still answered (fastify's HEAD routes).
    expect((await raw('HEAD', '/ws/app-config', { 'sec-fetch-site': 'same-origin' })).status).toBe(200);
  });

  it(`${PAYLOADS.length} encodings × ${ATTACKS.length} ways: no session ends, whatever the router routes`, async () => {
    let victim = await signedIn();
    const routed: string[] = [];
    const ended: string[] = [];
    for (const target of PAYLOADS) {
      for (const attack of ATTACKS) {
        const res = await raw(attack.method, ALL(target), { ...attack.headers, cookie: victim });
        // Refused, or not a route at all (a path the router does not see as the API's is a page: the app's).
        if (!res.page) expect([400, 403, 404, 405], `${attack.name} ${target}`).toContain(res.status);
        if (!(await alive(victim))) {
          ended.push(`${attack.name} ${target}`);
          victim = await signedIn();
        }
      }
      // What the router routes: the app's own call with this target signs out, or it is no route at all.
      const own = await raw('GET', ALL(target), { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', accept: 'application/json', cookie: victim });
      if (!(await alive(victim))) {
        routed.push(target);
        expect(own.status).toBe(200);
        // However the path was written, the logout answer is kept by no cache.
        expect(own.cacheControl, target).toBe('no-store');
        victim = await signedIn();
      } else if (!own.page) expect([400, 404], target).toContain(own.status);
    }
    expect(ended).toEqual([]);
    expect(routed).toEqual(['/ws/account/logout', '/ws/account/logou%74', '/ws/account/%6Cogout', '/ws/account/%6cogout', '/w%73/account/logout', PAYLOADS[6]]);
    figure(
      2,
      `sessions ended by ${PAYLOADS.length} encodings of the logout path × ${ATTACKS.length} ways (cross-site link, HEAD cross-site / same-site / same-origin, old browser's link)`,
      '29 of 170',
      `${ended.length} of ${PAYLOADS.length * ATTACKS.length}`,
    );
  });

  it("the old browser's own call (no Sec-Fetch-Site, asking for JSON) and a POST from our origin still work", async () => {
    const victim = await signedIn();
    expect((await raw('GET', '/ws/account/logout', { accept: 'application/json', cookie: victim })).status).toBe(200);
    expect(await alive(victim)).toBe(false);
    const ours = await app.inject({
      method: 'POST',
      url: '/ws/account/login',
      headers: { host: 'localhost:8080', origin: 'http://localhost:8080', 'sec-fetch-site': 'same-origin' },
      payload: { email: 'nomfa@demo.test', password: PASSWORD },
    });
    expect(body(ours)).toMatchObject({ resultCode: 'SUCCESS' });
  });

  it('an unknown API path in any encoding is a JSON 404 with no-store, never a page', async () => {
    for (const target of ['/ws/nothing', '/w%73/nothing', '/%77s/account/nothing', '/dev%2Fnothing']) {
      const res = await raw('GET', target, { accept: 'text/html' });
      if (target === '/dev%2Fnothing') {
        // The router keeps %2F encoded: not an API path to it, so a page path.
        expect(res.status).toBe(200);
        continue;
      }
      expect(res.status, target).toBe(404);
      expect(res.cacheControl, target).toBe('no-store');
      expect(JSON.parse(res.body)).toMatchObject({ error: 'NOT_FOUND' });
    }
  });
});

reportFigures('3-issue-35-csrf', 'The attack of issue 35, finding 2');
