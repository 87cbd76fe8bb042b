import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkProject, formatProblem, knownResultCodes, type Problem } from '../../catalogue/check/check';
import { checkScreens } from '../../scripts/check-screens';
import { jsonSyntaxError, positionAt } from '../../catalogue/check/positions';
import { closest } from '../../catalogue/check/suggest';
import { checkEditedCopy, copyCatalogue, repo, type Json } from './catalogue-copy';

/**
 * The human side of the catalogue check (issue: "file, line and column, JSON pointer, what is
 * wrong and a suggestion"): positions, 'did you mean', result-code coverage, reachable steps.
 * Each test breaks one thing in a temporary copy; the real catalogue is never touched.
 */
const LOGIN = 'screens/login.json';
const broken = (change: (doc: Json) => void) => checkEditedCopy(LOGIN, change);

/** The line of the edited file's text at a problem's position, to prove the position is the right one. */
function lineAt(text: string, problem: Problem): string {
  return text.split('\n')[(problem.line ?? 0) - 1] ?? '';
}

function only(problems: Problem[], pointer: string): Problem {
  const hit = problems.find((p) => p.pointer === pointer);
  expect(hit, problems.map(formatProblem).join('\n')).toBeDefined();
  return hit as Problem;
}

describe('positions', { timeout: 30_000 }, () => {
  it('offsets become 1-based line and column', () => {
    expect(positionAt('{\n  "a": 1\n}', 4)).toEqual({ line: 2, column: 3 });
  });

  it('syntax errors are located and said in words', () => {
    expect(jsonSyntaxError('{\n  "a": 1\n  "b": 2\n}')).toEqual({ line: 3, column: 3, message: expect.stringMatching(/comma/) });
    expect(jsonSyntaxError('{ "a": 1, }')?.message).toMatch(/trailing comma/);
    expect(jsonSyntaxError('{ "a": 1 }')).toBeUndefined();
  });

  it('invalid JSON in a screen file: file, line, column, reason', () => {
    const root = copyCatalogue();
    writeFileSync(join(root, LOGIN), '{\n  "id": "login",\n  "title": "login.title"\n  "routes": []\n}\n');
    const problem = only(checkProject({ root }).problems, '');
    expect(problem).toMatchObject({ file: LOGIN, line: 4, column: 3 });
    expect(formatProblem(problem)).toBe('screens/login.json:4:3: invalid JSON: a comma (,) is expected (is one missing at the end of the previous line?)');
  });

  it('a cross-check problem points at the line of the offending property', () => {
    const { text, problems } = broken((d) => (d.steps.credentials.uiSchema.password['ui:widget'] = 'fancy'));
    const problem = only(problems, '/steps/credentials/uiSchema/password/ui:widget');
    expect(lineAt(text, problem).slice((problem.column ?? 1) - 1)).toMatch(/^"ui:widget": "fancy",?$/);
    expect(formatProblem(problem)).toMatch(/^screens\/login\.json:\d+:\d+ at \/steps\/credentials\/uiSchema\/password\/ui:widget: unknown widget "fancy"/);
  });

  it('a meta-schema problem is located too', () => {
    const { text, problems } = broken((d) => (d.steps.credentials.submit[2].outcomes.SUCCESS = { teleport: true }));
    const problem = only(problems, '/steps/credentials/submit/2/outcomes/SUCCESS');
    expect(lineAt(text, problem).trim()).toMatch(/^"SUCCESS": \{/);
  });
});

describe('did you mean', { timeout: 30_000 }, () => {
  it('picks a close name and refuses a distant one', () => {
    expect(closest('pasword', ['password', 'email'])).toBe('password');
    expect(closest('Email', ['email', 'text'])).toBe('email');
    expect(closest('spaceship', ['password', 'email'])).toBeUndefined();
  });

  const cases: Array<[string, (d: Json) => void, string, string]> = [
    ['widget', (d) => (d.steps.credentials.uiSchema.password['ui:widget'] = 'passwrd'), '/steps/credentials/uiSchema/password/ui:widget', 'password'],
    [
      'i18n key',
      (d) => (d.steps.credentials.uiSchema.email['ui:title'] = 'login.fields.emial'),
      '/steps/credentials/uiSchema/email/ui:title',
      'login.fields.email',
    ],
    ['operation', (d) => (d.steps.credentials.submit[2].operation = 'logn'), '/steps/credentials/submit/2/operation', 'login'],
    [
      'route',
      (d) => (d.steps.credentials.submit[2].outcomes.MFA_REQUIRED = { navigate: { to: '/mfaa' } }),
      '/steps/credentials/submit/2/outcomes/MFA_REQUIRED/navigate/to',
      '/mfa',
    ],
    [
      'step',
      (d) => (d.steps.credentials.submit[2].outcomes.AUTHENTICATION_FAILURE = { step: 'credential' }),
      '/steps/credentials/submit/2/outcomes/AUTHENTICATION_FAILURE/step',
      'credentials',
    ],
    ['field', (d) => (d.steps.credentials.submit[2].body.email = '/emial'), '/steps/credentials/submit/2/body/email', 'email'],
  ];
  for (const [what, change, pointer, suggestion] of cases) {
    it(`a misspelt ${what}`, () => {
      const problem = only(broken(change).problems, pointer);
      expect(problem.suggestion).toBe(suggestion);
      expect(problem.message).toContain(`did you mean "${suggestion}"?`);
    });
  }
});

describe('result codes', { timeout: 30_000 }, () => {
  it('are read from the response schema (resultCode.examples or enum)', () => {
    const { project } = checkProject({ root: repo });
    expect(knownResultCodes(project, 'login')).toEqual(expect.arrayContaining(['SUCCESS', 'MFA_REQUIRED', 'ACCOUNT_MOVED']));
    expect(knownResultCodes(project, 'nope')).toEqual([]);
  });

  it('a code neither handled nor covered by "*" is reported at the outcome table', () => {
    const { problems } = broken((d) => {
      const outcomes = d.steps.credentials.submit[2].outcomes;
      delete outcomes['*'];
      // ACCOUNT_MOVED is answered by the included signInRouting block (screens/shared/outcomes.json).
      delete d.steps.credentials.submit[2].include;
    });
    const problem = only(problems, '/steps/credentials/submit/2/outcomes');
    expect(problem.message).toMatch(/"ACCOUNT_MOVED".* of operation "login" (is|are) not handled: add .* or add a "\*" outcome/);
  });

  it('"*" covers every code', () => {
    const { problems } = broken((d) => {
      delete d.steps.credentials.submit[2].include;
    });
    expect(problems.map(formatProblem)).toEqual([]);
  });
});

describe('steps', { timeout: 30_000 }, () => {
  it('a step no outcome leads to is unreachable', () => {
    const { problems } = broken((d) => (d.steps.lonely = { title: d.title }));
    expect(only(problems, '/steps/lonely').message).toBe('step "lonely" cannot be reached from initialStep "credentials": no outcome leads to it');
  });

  it('a step an outcome leads to is reachable', () => {
    const { problems } = broken((d) => {
      d.steps.lonely = { title: d.title };
      d.steps.credentials.submit[2].outcomes.ACCOUNT_SUSPENDED = { step: 'lonely' };
    });
    expect(problems.map(formatProblem)).toEqual([]);
  });
});

describe('one mistake, one problem', { timeout: 30_000 }, () => {
  it('a misspelt key is one problem for all the languages it is missing in', () => {
    const { problems } = broken((d) => (d.steps.credentials.uiSchema.email['ui:title'] = 'login.fields.emial'));
    expect(problems).toHaveLength(1);
    expect(problems[0]?.message).toMatch(/^i18n key "login\.fields\.emial" is missing in locales\/en-us/);
  });

  it('a locale file that does not parse is reported once, not once per key', () => {
    const root = copyCatalogue();
    writeFileSync(join(root, 'locales/en-us/login.json'), '{ "title": "Sign in" "submit": "x" }');
    const problems = checkProject({ root }).problems;
    expect(problems.map(formatProblem)).toEqual([expect.stringMatching(/^locales\/en-us\/login\.json:1:\d+: invalid JSON: a comma/)]);
  });

  it('a bad $ref is reported at the $ref only (its field still exists)', () => {
    const { problems } = broken((d) => (d.steps.credentials.schema.properties.email.$ref = 'defs/emial.json'));
    expect(problems.map((p) => p.pointer)).toEqual(['/steps/credentials/schema/properties/email/$ref']);
  });
});

describe('npm run screens:check', { timeout: 30_000 }, () => {
  it('passes on the real catalogue', () => {
    expect(checkScreens(repo).map(formatProblem)).toEqual([]);
  });

  it("every problem of the issue's broken edits has file, position, pointer and reason", () => {
    const edits: Array<(d: Json) => void> = [
      (d) => (d.steps.credentials.uiSchema.password['ui:widget'] = 'fancy'),
      (d) => (d.steps.credentials.uiSchema.email['ui:title'] = 'login.fields.emial'),
      (d) => (d.steps.credentials.submit[2].outcomes.MFA_REQUIRED = { navigate: { to: '/nowhere' } }),
      (d) => (d.steps.credentials.schema.properties.email.$ref = 'defs/nope.json'),
    ];
    for (const change of edits) {
      const { problems } = broken(change);
      expect(problems.length).toBeGreaterThan(0);
      for (const p of problems) {
        expect(p.file).toBe(LOGIN);
        expect(p.line).toBeGreaterThan(0);
        expect(p.column).toBeGreaterThan(0);
        expect(p.pointer).toMatch(/^\//);
        expect(p.message.length).toBeGreaterThan(10);
      }
    }
  });
});
