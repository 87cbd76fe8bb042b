import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkProject, formatProblem } from '../../catalogue/check/check';
import { planOutcome } from '../../catalogue/language/outcomes';
import { holds } from '../../catalogue/language/conditions';
import type { Scope } from '../../catalogue/language/scope';

/** The generic engine pieces the account flows added: value and form-field conditions, submit outcomes. */

const scope = (ctx: Record<string, unknown>, form: Record<string, unknown> = {}): Scope => ({
  form,
  ctx,
  params: {},
  query: {},
  env: {},
  flags: { branded: false, production: false, selfRegistrationEnabled: true, expiredTrialCookie: false },
});

describe('conditions', () => {
  it("'name=value' compares the context value as a string", () => {
    expect(holds('authType=NATIVE', scope({ authType: 'NATIVE' }))).toBe(true);
    expect(holds('authType=NATIVE', scope({ authType: 'SSO' }))).toBe(false);
    expect(holds('authType=NATIVE', scope({}))).toBe(false);
    expect(holds('count=3', scope({ count: 3 }))).toBe(true);
    expect(holds('flag=true', scope({ flag: true }))).toBe(true);
    // Objects never equal a string, even when they would stringify to it.
    expect(holds('obj=[object Object]', scope({ obj: {} }))).toBe(false);
    expect(holds('!authType=SSO', scope({ authType: 'NATIVE' }))).toBe(true);
  });
  it("'/field' and '/field=value' read the form, not the context", () => {
    expect(holds('/verifyBy=TEXT', scope({ verifyBy: 'TEXT' }, { verifyBy: 'EMAIL' }))).toBe(false);
    expect(holds('/verifyBy=TEXT', scope({}, { verifyBy: 'TEXT' }))).toBe(true);
    expect(holds('!/verifyBy=TEXT', scope({}, {}))).toBe(true);
    expect(holds('/email', scope({ email: 'x' }, {}))).toBe(false);
    expect(holds(['/email', 'invite', '$selfRegistrationEnabled'], scope({ invite: true }, { email: 'a@b.test' }))).toBe(true);
  });
});

describe('a submit outcome (Continue)', () => {
  it('assigns the form into the context and moves to the step', () => {
    const plan = planOutcome({ assign: { email: '/email', phone: '/phone' }, step: 'profile' }, scope({ invite: true }, { email: 'a@b.test' }));
    expect(plan.ctx).toEqual({ invite: true, email: 'a@b.test' });
    expect(plan.transition).toEqual({ kind: 'step', step: 'profile' });
  });
});

describe('catalogue check', () => {
  const repo = resolve(__dirname, '../..');
  const temps: string[] = [];
  afterEach(() => temps.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  const problemsAfter = (change: (doc: Record<string, any>) => void) => {
    const root = mkdtempSync(join(tmpdir(), 'frontdoor-account-'));
    temps.push(root);
    for (const part of ['screens', 'schemas', 'locales']) cpSync(join(repo, part), join(root, part), { recursive: true });
    const file = join(root, 'screens/resetPassword.json');
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    change(doc);
    writeFileSync(file, JSON.stringify(doc));
    return checkProject({ root }).problems.map(formatProblem);
  };

  it('refuses a condition on a form field no step has', () => {
    const problems = problemsAfter((doc) => {
      doc.steps.request.uiSchema.phoneDigits['ui:hiddenWhen'] = '!/verifyVia=TEXT';
    });
    expect(problems.some((p) => p.includes('/steps/request/uiSchema/phoneDigits/ui:hiddenWhen') && p.includes('form field "verifyVia"'))).toBe(true);
  });
  it("checks a submit's outcome like any outcome", () => {
    const problems = problemsAfter((doc) => {
      doc.steps.request.submit[0] = { label: 'resetPassword.send', outcome: { step: 'nowhere' } };
    });
    expect(problems.some((p) => p.includes('/steps/request/submit/0/outcome') && p.includes('step "nowhere" does not exist'))).toBe(true);
  });
  it('a submit needs an operation or an outcome', () => {
    const problems = problemsAfter((doc) => {
      doc.steps.request.submit[0] = { label: 'resetPassword.send' };
    });
    expect(problems.some((p) => p.includes('at /steps/request/submit/0: missing required property "operation"'))).toBe(true);
  });
});
