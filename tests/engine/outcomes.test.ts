import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { outcomeFor } from '../../catalogue/language/outcome-lookup';
import { buildPath, planOutcome } from '../../catalogue/language/outcomes';
import { decodeStateJson } from '../../catalogue/language/state-param';
import type { Scope } from '../../catalogue/language/scope';
import type { Outcome, Outcomes, SharedOutcomes } from '../../src/engine/types';

function scope(overrides: Partial<Scope> = {}): Scope {
  return {
    form: { email: 'jo@example.com', password: 'pw' },
    ctx: { sso: false, name: 'Jo' },
    params: { code: 'p1' },
    query: { q: 'query value' },
    env: { returnTo: '/app/reports?x=1' },
    flags: { branded: false, production: false, selfRegistrationEnabled: true, expiredTrialCookie: false },
    response: {
      mfaType: 'TOTP',
      available_mfa: ['TOTP', 'SMS'],
      loginToken: 'tok/en+=?',
      verificationCode: 'a b/c?d&e',
      idpName: 'Demo IdP',
      url: 'https://idp.example.com/start',
      count: 3,
    },
    ...overrides,
  };
}

/** The catalogue's shared outcomes as the screens get them (screens/shared/outcomes.json). */
const shared: SharedOutcomes = JSON.parse(readFileSync(resolve(__dirname, '../../screens/shared/outcomes.json'), 'utf8')) as SharedOutcomes;

describe('outcomeFor: the one place a result code becomes an outcome', () => {
  const table: Outcomes = { SUCCESS: { authenticate: true }, '*': { error: 'x.generic' } };
  it('an exact code beats the wildcard', () => {
    expect(outcomeFor({ outcomes: table }, 'SUCCESS', shared)).toEqual({ outcome: { authenticate: true }, from: 'own' });
  });
  it("falls back to '*', and to the shared 'unhandled' outcome with no match and no '*', or no table", () => {
    expect(outcomeFor({ outcomes: table }, 'OTHER', shared)).toEqual({ outcome: { error: 'x.generic' }, from: 'star' });
    expect(outcomeFor({ outcomes: { SUCCESS: {} } }, 'OTHER', shared)).toEqual({ outcome: shared.unhandled, from: 'unhandled' });
    expect(outcomeFor({}, 'HTTP_500', shared).outcome).toEqual({ error: 'common.errors.unexpected', report: true });
  });
  it('does not match inherited names', () => {
    expect(outcomeFor({ outcomes: { SUCCESS: {} } }, 'toString', shared).from).toBe('unhandled');
    expect(outcomeFor({ outcomes: { SUCCESS: {} } }, '__proto__', shared).from).toBe('unhandled');
  });
  it("a call's own entry beats the shared default", () => {
    const own: Outcome = { error: 'screen.botCheck' };
    expect(outcomeFor({ outcomes: { BOT_CHECK_UNAVAILABLE: own, '*': { error: 'x' } } }, 'BOT_CHECK_UNAVAILABLE', shared).outcome).toBe(own);
  });
  it("the shared default beats the call's '*' (network, time-out, bot check)", () => {
    expect(outcomeFor({ outcomes: { '*': { error: 'screen.generic' } } }, 'BOT_CHECK_UNAVAILABLE', shared)).toEqual({
      outcome: shared.defaults.BOT_CHECK_UNAVAILABLE,
      from: 'default',
    });
    expect(shared.defaults.BOT_CHECK_UNAVAILABLE).toMatchObject({ error: 'common.errors.botCheckUnavailable', report: true });
    expect(outcomeFor({ outcomes: { '*': { error: 'screen.generic' } } }, 'NETWORK_ERROR', shared)).toEqual({
      outcome: { error: 'common.errors.network' },
      from: 'default',
    });
    expect(outcomeFor({ outcomes: { '*': { error: 'screen.generic' } } }, 'TIMEOUT', shared).outcome).toEqual({ error: 'common.errors.timeout' });
    expect(outcomeFor({}, 'BOT_CHECK_UNAVAILABLE', shared).from).toBe('default');
  });
  it("background calls (probes, on-enter) keep to their own '*' for network and time-out, not for the bot check", () => {
    expect(outcomeFor({ outcomes: { '*': { assign: { sso: false } } } }, 'NETWORK_ERROR', shared, true)).toEqual({
      outcome: { assign: { sso: false } },
      from: 'star',
    });
    expect(outcomeFor({ outcomes: { '*': { assign: { sso: false } } } }, 'TIMEOUT', shared, true).from).toBe('star');
    expect(outcomeFor({ outcomes: { '*': { assign: { sso: false } } } }, 'BOT_CHECK_UNAVAILABLE', shared, true).from).toBe('default');
  });
  it('an included block answers the codes the own table does not name, before the defaults and the own *', () => {
    const call = { include: ['signInRouting'], outcomes: { SUCCESS: { authenticate: true }, '*': { error: 'x' } } };
    expect(outcomeFor(call, 'MFA_REQUIRED', shared)).toEqual({ outcome: shared.blocks.signInRouting!.MFA_REQUIRED, from: 'block' });
    expect(outcomeFor({ ...call, outcomes: { ...call.outcomes, MFA_REQUIRED: { error: 'own' } } }, 'MFA_REQUIRED', shared).outcome).toEqual({ error: 'own' });
    expect(outcomeFor(call, 'MFA_REQUIRED', shared, true).from).toBe('block');
  });
});

describe('planOutcome', () => {
  it('an empty outcome keeps ctx and does nothing', () => {
    const plan = planOutcome({}, scope());
    expect(plan).toEqual({ ctx: { sso: false, name: 'Jo' }, actions: [], report: false, clear: [] });
  });

  it('assigns into a new ctx without mutating the old one', () => {
    const s = scope();
    const plan = planOutcome({ assign: { sso: true, idpName: '$response/idpName', missing: '$response/none' } }, s);
    expect(plan.ctx).toEqual({ sso: true, name: 'Jo', idpName: 'Demo IdP' });
    expect(s.ctx).toEqual({ sso: false, name: 'Jo' });
    expect('missing' in plan.ctx).toBe(false);
  });

  it('message, error, warning and fieldErrors are resolved against the assigned ctx', () => {
    const plan = planOutcome(
      {
        assign: { idpName: '$response/idpName' },
        message: { key: 'm.key', values: { idp: '$ctx/idpName' }, kind: 'success', permanent: true },
        error: { key: 'e.key', values: { idp: '$ctx/idpName', n: '$response/count' } },
        warning: 'w.key',
        fieldErrors: { email: { key: 'f.key', values: { email: '/email' } }, password: 'f.password' },
        actions: ['storeExpiredTrialSession'],
        report: true,
        clear: ['password'],
      },
      scope(),
    );
    expect(plan.message).toEqual({ key: 'm.key', values: { idp: 'Demo IdP' }, kind: 'success', permanent: true });
    expect(plan.error).toEqual({ key: 'e.key', values: { idp: 'Demo IdP', n: 3 } });
    expect(plan.warning).toEqual({ key: 'w.key', values: {} });
    expect(plan.fieldErrors).toEqual({
      email: { key: 'f.key', values: { email: 'jo@example.com' } },
      password: { key: 'f.password', values: {} },
    });
    expect(plan.actions).toEqual(['storeExpiredTrialSession']);
    expect(plan.report).toBe(true);
    expect(plan.clear).toEqual(['password']);
    expect(plan.transition).toBeUndefined();
  });

  it('a message defaults to info and not permanent', () => {
    expect(planOutcome({ message: { key: 'k' } }, scope()).message).toEqual({ key: 'k', values: {}, kind: 'info', permanent: false });
  });

  it('step', () => {
    expect(planOutcome({ step: 'code' }, scope()).transition).toEqual({ kind: 'step', step: 'code' });
  });

  it('navigate fills {params} URL-encoded, adds the query, keeps replace', () => {
    const plan = planOutcome(
      {
        navigate: {
          to: '/resetPassword/{verificationCode}',
          params: { verificationCode: '$response/verificationCode' },
          query: { email: '/email', q: '$query/q', none: '/nope' },
          replace: true,
        },
      },
      scope(),
    );
    expect(plan.transition).toEqual({
      kind: 'navigate',
      path: '/resetPassword/a%20b%2Fc%3Fd%26e?email=jo%40example.com&q=query+value',
      state: undefined,
      replace: true,
    });
  });

  it('navigate with a missing param leaves the placeholder empty, never "undefined"', () => {
    const plan = planOutcome({ navigate: { to: '/x/{missing}' } }, scope());
    expect(plan.transition).toMatchObject({ kind: 'navigate', path: '/x/', replace: false });
  });

  it('navigate packs stateParam as base64url JSON that decodeStateJson reads back', () => {
    const plan = planOutcome(
      {
        assign: { sso: true },
        navigate: {
          to: '/mfa',
          stateParam: {
            mfaType: '$response/mfaType',
            available_mfa: '$response/available_mfa',
            loginToken: '$response/loginToken',
            sso: '$ctx/sso',
            duoUrl: '$response/duoUrl',
          },
        },
      },
      scope(),
    );
    const t = plan.transition;
    if (t?.kind !== 'navigate') throw new Error('expected navigate');
    const url = new URL(t.path, 'https://localhost');
    expect(url.pathname).toBe('/mfa');
    const state = url.searchParams.get('state') ?? '';
    expect(state).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeStateJson(state)).toEqual({ mfaType: 'TOTP', available_mfa: ['TOTP', 'SMS'], loginToken: 'tok/en+=?', sso: true });
  });

  it('navigate routerState is resolved (after assign) and passed as state', () => {
    const plan = planOutcome(
      { assign: { moved: '$response/url' }, navigate: { to: '/accountMoved', routerState: { url: '$ctx/moved', nope: '$response/none' } } },
      scope(),
    );
    expect(plan.transition).toEqual({ kind: 'navigate', path: '/accountMoved', state: { url: 'https://idp.example.com/start' }, replace: false });
  });

  it('redirect resolves its source; a non-string becomes empty', () => {
    expect(planOutcome({ redirect: '$response/url' }, scope()).transition).toEqual({ kind: 'redirect', url: 'https://idp.example.com/start' });
    expect(planOutcome({ redirect: { const: '/login' } }, scope()).transition).toEqual({ kind: 'redirect', url: '/login' });
    expect(planOutcome({ redirect: '$response/count' }, scope()).transition).toEqual({ kind: 'redirect', url: '' });
    expect(planOutcome({ redirect: '$response/none' }, scope()).transition).toEqual({ kind: 'redirect', url: '' });
  });

  it('authenticate and resubmit', () => {
    expect(planOutcome({ authenticate: true }, scope()).transition).toEqual({ kind: 'authenticate' });
    const resubmit = planOutcome({ assign: { sso: true }, resubmit: true }, scope());
    expect(resubmit.transition).toEqual({ kind: 'resubmit' });
    expect(resubmit.ctx.sso).toBe(true);
  });

  it('authenticate with a mapping names the answer itself (an outcome without a call), resolved after assign', () => {
    const plan = planOutcome(
      { assign: { kind: '$response/url' }, authenticate: { userType: { const: 'END_USER' }, from: '$ctx/kind', none: '$ctx/absent' } },
      scope(),
    );
    expect(plan.transition).toEqual({ kind: 'authenticate', answer: { userType: 'END_USER', from: 'https://idp.example.com/start' } });
  });

  it('authenticate: false and resubmit: false do nothing', () => {
    expect(planOutcome({ authenticate: false }, scope()).transition).toBeUndefined();
    expect(planOutcome({ resubmit: false }, scope()).transition).toBeUndefined();
  });
});

describe('buildPath', () => {
  it('a bare path stays bare', () => {
    expect(buildPath({ to: '/login' }, scope())).toBe('/login');
  });
  it('fills several params and encodes each', () => {
    expect(buildPath({ to: '/a/{one}/b/{two}', params: { one: '$params/code', two: { const: 'x y' } } }, scope())).toBe('/a/p1/b/x%20y');
  });
  it('query values are stringified', () => {
    expect(buildPath({ to: '/x', query: { n: '$response/count', b: true } }, scope())).toBe('/x?n=3&b=true');
  });
  it('an empty stateParam mapping still yields a decodable state', () => {
    const path = buildPath({ to: '/mfa', stateParam: { none: '/nope' } }, scope());
    const state = new URL(path, 'https://localhost').searchParams.get('state');
    expect(decodeStateJson(state)).toEqual({});
  });
});
