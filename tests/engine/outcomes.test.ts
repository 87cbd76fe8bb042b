import { describe, expect, it } from 'vitest';
import { buildPath, pickOutcome, planOutcome } from '../../src/engine/outcomes';
import { ENGINE_OUTCOMES, outcomeFor } from '../../src/engine/flow';
import { decodeStateJson } from '../../src/engine/state-param';
import type { Scope } from '../../src/engine/scope';
import type { Outcome, Outcomes } from '../../src/engine/types';

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

describe('pickOutcome', () => {
  const table: Outcomes = { SUCCESS: { authenticate: true }, '*': { error: 'x.generic' } };
  it('an exact code beats the wildcard', () => {
    expect(pickOutcome(table, 'SUCCESS')).toEqual({ authenticate: true });
  });
  it('falls back to *', () => {
    expect(pickOutcome(table, 'OTHER')).toEqual({ error: 'x.generic' });
  });
  it('is undefined with no match and no *, or no table', () => {
    expect(pickOutcome({ SUCCESS: {} }, 'OTHER')).toBeUndefined();
    expect(pickOutcome(undefined, 'SUCCESS')).toBeUndefined();
  });
  it('does not match inherited names', () => {
    expect(pickOutcome({ SUCCESS: {} }, 'toString')).toBeUndefined();
    expect(pickOutcome({ SUCCESS: {} }, '__proto__')).toBeUndefined();
  });
});

describe('flow.outcomeFor', () => {
  it("a screen's own entry beats the engine's", () => {
    const own: Outcome = { error: 'screen.botCheck' };
    expect(outcomeFor({ BOT_CHECK_UNAVAILABLE: own, '*': { error: 'x' } }, 'BOT_CHECK_UNAVAILABLE')).toBe(own);
  });
  it("the engine's entry beats the screen's '*'", () => {
    expect(outcomeFor({ '*': { error: 'screen.generic' } }, 'BOT_CHECK_UNAVAILABLE')).toBe(ENGINE_OUTCOMES.BOT_CHECK_UNAVAILABLE);
    expect(ENGINE_OUTCOMES.BOT_CHECK_UNAVAILABLE).toMatchObject({ error: 'common.errors.botCheckUnavailable', report: true });
  });
  it("'*' catches other codes; nothing when there is no table", () => {
    expect(outcomeFor({ '*': { error: 'screen.generic' } }, 'HTTP_500')).toEqual({ error: 'screen.generic' });
    expect(outcomeFor(undefined, 'HTTP_500')).toBeUndefined();
    expect(outcomeFor(undefined, 'BOT_CHECK_UNAVAILABLE')).toBe(ENGINE_OUTCOMES.BOT_CHECK_UNAVAILABLE);
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
