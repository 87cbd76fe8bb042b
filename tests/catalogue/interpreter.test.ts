import { describe, expect, it } from 'vitest';
import { follow, MAX_RESUBMITS, planFor, runCall, runOutcome, runSubmit, type CallResult, type OutcomeHost } from '../../catalogue/language/interpreter';
import type { OutcomePlan } from '../../catalogue/language/outcomes';
import type { Scope } from '../../catalogue/language/scope';
import type { CallSpec, SharedOutcomes, StepSpec } from '../../catalogue/language/types';

/**
 * The one interpreter of a screen's outcomes (catalogue/language/interpreter.ts), with a recording
 * host: the engine, the plain forms and the studio's simulator are its hosts, each tested with its
 * own suite (tests/engine, tests/server/plain-forms.test.ts, the studio e2e).
 */
const shared: SharedOutcomes = {
  defaults: {},
  // As in screens/shared/outcomes.json: for what the visitor started, not for background calls.
  visitorDefaults: { NETWORK_ERROR: { error: 'common.errors.network' } },
  blocks: {},
  unhandled: { error: 'common.errors.unexpected', report: true },
};

type Event = [string, ...unknown[]];

/** A host that records what the interpreter asks of it, answers calls from `answers` (in turn) and ends each run with the transition's name. */
function recorder(step: StepSpec, answers: Array<CallResult | { end: string }>, form: Record<string, unknown> = {}) {
  const events: Event[] = [];
  let ctx: Record<string, unknown> = { start: true };
  const host: OutcomeHost<string> = {
    outcomes: shared,
    step: () => step,
    scope: (data): Scope => ({ form: data, ctx, params: {}, query: {}, env: {}, flags: { on: true } }),
    formData: () => form,
    call: async (call, body, background) => {
      events.push(['call', call.operation, body, background]);
      const answer = answers.shift();
      if (!answer) throw new Error('no answer left');
      return answer;
    },
    apply: (plan: OutcomePlan, result, operation) => {
      ctx = plan.ctx;
      events.push(['apply', operation, result?.code, plan.error?.key]);
    },
    transitions: {
      step: (name) => `step:${name}`,
      navigate: (to, _plan, response) => `navigate:${to.path}:${JSON.stringify(response ?? null)}`,
      redirect: (url) => `redirect:${url}`,
      authenticate: (answer) => `authenticate:${JSON.stringify(answer ?? null)}`,
      resubmit: (_plan, again) => (again ? again() : 'resubmit refused'),
      stay: (plan) => `stay:${plan.error?.key ?? ''}`,
    },
    idle: () => 'idle',
  };
  return { host, events, ctx: () => ctx };
}

const ok = (code: string, data: unknown = {}): CallResult => ({ code, status: 200, data });

describe('runSubmit: the submit that applies, its call and the outcome of its result code', () => {
  const step: StepSpec = {
    submit: [
      { when: '/sso', label: 'x', operation: 'ssoStart', outcomes: { SUCCESS: { redirect: '$response/url' } } },
      {
        label: 'x',
        operation: 'login',
        body: { email: '/email' },
        outcomes: { SUCCESS: { authenticate: true, assign: { signedIn: true } }, BAD: { error: 'login.bad' }, AGAIN: { resubmit: true } },
      },
    ],
  };

  it('runs the first submit whose condition holds, with the body its mapping resolves', async () => {
    const { host, events, ctx } = recorder(step, [ok('SUCCESS', { userType: 'END_USER' })]);
    expect(await runSubmit(host, { email: 'jo@example.com' })).toBe('authenticate:{"userType":"END_USER"}');
    // The plan is applied (context first) before its transition runs.
    expect(events).toEqual([
      ['call', 'login', { email: 'jo@example.com' }, false],
      ['apply', 'login', 'SUCCESS', undefined],
    ]);
    expect(ctx()).toMatchObject({ start: true, signedIn: true });
    const sso = recorder(step, [ok('SUCCESS', { url: 'https://idp.example.com/' })]);
    expect(await runSubmit(sso.host, { sso: true })).toBe('redirect:https://idp.example.com/');
  });

  it('a code the table does not name falls back to the shared outcomes (never silence)', async () => {
    const network = recorder(step, [ok('NETWORK_ERROR')]);
    expect(await runSubmit(network.host, {})).toBe('stay:common.errors.network');
    const unknown = recorder(step, [ok('SOMETHING_ELSE')]);
    expect(await runSubmit(unknown.host, {})).toBe('stay:common.errors.unexpected');
  });

  it('is idle when no submit applies or the one that applies is disabled, and calls nothing', async () => {
    const none = recorder({ submit: [{ when: '/never', label: 'x', operation: 'login' }] }, []);
    expect(await runSubmit(none.host, {})).toBe('idle');
    const disabled = recorder({ submit: { label: 'x', operation: 'login', disabledWhen: '/locked' } }, []);
    expect(await runSubmit(disabled.host, { locked: true })).toBe('idle');
    expect([...none.events, ...disabled.events]).toEqual([]);
    // The control: the same submit runs when its condition does not hold.
    const enabled = recorder({ submit: { label: 'x', operation: 'login', disabledWhen: '/locked', outcomes: { SUCCESS: {} } } }, [ok('SUCCESS')]);
    expect(await runSubmit(enabled.host, { locked: false })).toBe('stay:');
  });

  it(`a resubmit runs the submit again ${MAX_RESUBMITS} time, with the form as it is then; not more`, async () => {
    const twice = recorder(step, [ok('AGAIN'), ok('BAD')], { email: 'later@example.com' });
    expect(await runSubmit(twice.host, { email: 'first@example.com' })).toBe('stay:login.bad');
    expect(twice.events.filter(([kind]) => kind === 'call').map(([, , body]) => body)).toEqual([
      { email: 'first@example.com' },
      { email: 'later@example.com' },
    ]);
    const loop = recorder(step, [ok('AGAIN'), ok('AGAIN'), ok('AGAIN')]);
    expect(await runSubmit(loop.host, {})).toBe('resubmit refused');
    expect(loop.events.filter(([kind]) => kind === 'call')).toHaveLength(1 + MAX_RESUBMITS);
  });

  it("a call the host ends (the screen went away, an answer it cannot go on from) applies nothing: the host's end is the run's", async () => {
    const { host, events } = recorder(step, [{ end: 'gone' }]);
    expect(await runSubmit(host, {})).toBe('gone');
    expect(events.map(([kind]) => kind)).toEqual(['call']);
  });

  it('a submit without an operation runs its outcome (a Continue), and may resubmit nothing but itself once', async () => {
    const { host, events } = recorder({ submit: { label: 'x', outcome: { step: 'two', assign: { seen: '/email' } } } }, []);
    expect(await runSubmit(host, { email: 'a@b.c' })).toBe('step:two');
    expect(events).toEqual([['apply', undefined, undefined, undefined]]);
  });
});

describe('runCall and runOutcome', () => {
  it("a background call (probe, on-enter) keeps to its own '*' for the network, a visible one gets the shared default", async () => {
    const call: CallSpec = { operation: 'authenticationState', outcomes: { '*': { assign: { sso: false } } } };
    const probe = recorder({}, [ok('NETWORK_ERROR')]);
    expect(await runCall(probe.host, call, {}, true)).toBe('stay:');
    expect(probe.ctx()).toMatchObject({ sso: false });
    const button = recorder({}, [ok('NETWORK_ERROR')]);
    expect(await runCall(button.host, call, {}, false)).toBe('stay:common.errors.network');
  });

  it('outside a submit a resubmit has nothing to run again', async () => {
    const { host } = recorder({}, [ok('X')]);
    expect(await runCall(host, { operation: 'op', outcomes: { X: { resubmit: true } } }, {}, false)).toBe('resubmit refused');
    expect(await runOutcome(host, { resubmit: true }, {})).toBe('resubmit refused');
  });

  it("navigate gets the call's answer; authenticate gets the outcome's own answer before the call's", async () => {
    const { host } = recorder({}, [ok('S', { userType: 'TECHNICIAN' }), ok('S', { userType: 'TECHNICIAN' })]);
    expect(await runCall(host, { operation: 'op', outcomes: { S: { navigate: { to: '/passkey' } } } }, {}, false)).toBe(
      'navigate:/passkey:{"userType":"TECHNICIAN"}',
    );
    expect(
      await runCall(
        host,
        { operation: 'op', outcomes: { S: { authenticate: { userType: '$ctx/kind' }, assign: { kind: { const: 'END_USER' } } } } },
        {},
        false,
      ),
    ).toBe('authenticate:{"userType":"END_USER"}');
  });
});

describe('follow and planFor: the parts the simulator uses without running anything', () => {
  const scope: Scope = { form: {}, ctx: {}, params: {}, query: {}, env: {}, flags: {} };
  const name = {
    step: () => 'step',
    navigate: () => 'navigate',
    redirect: () => 'redirect',
    authenticate: () => 'authenticate',
    resubmit: () => 'resubmit',
    stay: () => 'stay',
  };

  it('follows each kind of transition to its handler, and no transition to stay', () => {
    const kinds = [{ step: 'x' }, { navigate: { to: '/x' } }, { redirect: '/ctx/url' }, { authenticate: true }, { resubmit: true }, {}].map((outcome) =>
      follow(planFor({ outcomes: { C: outcome } }, { code: 'C', data: {} }, shared, scope, false).plan, name),
    );
    expect(kinds).toEqual(['step', 'navigate', 'redirect', 'authenticate', 'resubmit', 'stay']);
  });

  it('says which table handled the code', () => {
    expect(planFor({ outcomes: { C: {} } }, { code: 'C', data: {} }, shared, scope, false).from).toBe('own');
    expect(planFor({}, { code: 'NETWORK_ERROR', data: {} }, shared, scope, false).from).toBe('default');
    expect(planFor({ outcomes: { '*': {} } }, { code: 'NETWORK_ERROR', data: {} }, shared, scope, true).from).toBe('star');
    expect(planFor({}, { code: 'NOPE', data: {} }, shared, scope, false).from).toBe('unhandled');
  });
});
