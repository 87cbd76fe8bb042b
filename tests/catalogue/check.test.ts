import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkCodeKeys, checkProject, formatProblem, type Problem } from '../../catalogue/check/check';
import { CatalogueError, generate } from '../../tooling/generate';
import { checkEditedCopy, copyCatalogue, edit, repo, type Json } from './catalogue-copy';

const LOGIN = 'screens/login.json';
const SUBMIT = '/steps/credentials/submit/2';

/** Breaks the copy, checks it and returns its problems. */
function problemsAfter(file: string, change: (doc: Json) => void): Problem[] {
  return checkEditedCopy(file, change).problems;
}

function expectProblem(problems: Problem[], file: string, pointer: string, message: RegExp): void {
  const match = problems.find((p) => p.file === file && p.pointer === pointer && message.test(p.message));
  expect(match, `no problem ${file} at ${pointer} matching ${message}; got:\n${problems.map(formatProblem).join('\n')}`).toBeDefined();
}

describe('the real catalogue', () => {
  it('has no problems', () => {
    const { project, problems } = checkProject({ root: repo });
    expect(problems.map(formatProblem)).toEqual([]);
    expect(project.screens.map((s) => s.screen.id)).toContain('login');
    expect(project.operations.login?.path).toBe('/ws/account/login');
    expect(Object.keys(project.locales)).toContain('en-us');
  });

  it('every i18n key written in code exists', () => {
    const { project } = checkProject({ root: repo });
    expect(checkCodeKeys(repo, project).map(formatProblem)).toEqual([]);
  });

  it('an untouched copy has no problems either', () => {
    expect(checkProject({ root: copyCatalogue() }).problems).toEqual([]);
  });
});

describe('a broken copy names the file, the pointer and the reason', () => {
  it('unknown widget', () => {
    const problems = problemsAfter(LOGIN, (d) => (d.steps.credentials.uiSchema.password['ui:widget'] = 'fancy'));
    expectProblem(problems, LOGIN, '/steps/credentials/uiSchema/password/ui:widget', /unknown widget "fancy"/);
  });

  it('dangling i18n key', () => {
    const problems = problemsAfter(LOGIN, (d) => (d.steps.credentials.uiSchema.email['ui:title'] = 'login.fields.nope'));
    expectProblem(problems, LOGIN, '/steps/credentials/uiSchema/email/ui:title', /i18n key "login\.fields\.nope" is missing in locales\/en-us/);
  });

  it('a key removed from the locale', () => {
    const root = copyCatalogue();
    edit(root, 'locales/en-us/login.json', (d) => delete d.errors.invalidCredentials);
    const problems = checkProject({ root }).problems;
    expectProblem(problems, LOGIN, `${SUBMIT}/outcomes/AUTHENTICATION_FAILURE/error`, /i18n key "login\.errors\.invalidCredentials" is missing/);
    expectProblem(problems, LOGIN, `${SUBMIT}/outcomes/VERIFICATION_CODE_EXPIRED/error`, /login\.errors\.invalidCredentials/);
  });

  it('invalid outcome verb is a meta-schema error at the outcome', () => {
    const problems = problemsAfter(LOGIN, (d) => (d.steps.credentials.submit[2].outcomes.AUTHENTICATION_FAILURE = { teleport: true }));
    expectProblem(problems, LOGIN, `${SUBMIT}/outcomes/AUTHENTICATION_FAILURE`, /unknown property "teleport"/);
  });

  it('unknown operation', () => {
    const problems = problemsAfter(LOGIN, (d) => (d.steps.credentials.submit[2].operation = 'loginWithMagic'));
    expectProblem(problems, LOGIN, `${SUBMIT}/operation`, /unknown operation "loginWithMagic" \(no schemas\/api\/loginWithMagic\.json\)/);
  });

  it('a body field the operation does not take', () => {
    const problems = problemsAfter(LOGIN, (d) => (d.steps.credentials.submit[2].body.favouriteColour = '/email'));
    expectProblem(problems, LOGIN, `${SUBMIT}/body/favouriteColour`, /operation "login" takes no field "favouriteColour"/);
  });

  it('a body source reading a field the form does not have', () => {
    const problems = problemsAfter(LOGIN, (d) => (d.steps.credentials.submit[2].body.email = '/mail'));
    expectProblem(problems, LOGIN, `${SUBMIT}/body/email`, /form field "mail" does not exist/);
  });

  it('bad $ref (missing file)', () => {
    const problems = problemsAfter(LOGIN, (d) => (d.steps.credentials.schema.properties.email.$ref = 'defs/missing.json'));
    expectProblem(problems, LOGIN, '/steps/credentials/schema/properties/email/$ref', /\$ref "defs\/missing\.json" cannot be resolved: no such file/);
  });

  it('bad $ref (missing pointer)', () => {
    const problems = problemsAfter(LOGIN, (d) => (d.steps.credentials.schema.properties.email.$ref = 'defs/email.json#/nope'));
    expectProblem(problems, LOGIN, '/steps/credentials/schema/properties/email/$ref', /the pointer #\/nope does not exist/);
  });

  it('navigate to a missing route', () => {
    const problems = problemsAfter(LOGIN, (d) => (d.steps.credentials.submit[2].outcomes.MFA_REQUIRED = { navigate: { to: '/nowhere' } }));
    expectProblem(problems, LOGIN, `${SUBMIT}/outcomes/MFA_REQUIRED/navigate/to`, /no screen has a route for "\/nowhere"/);
  });

  it('a link to a missing route', () => {
    const problems = problemsAfter(LOGIN, (d) => (d.steps.credentials.blocks.after[1].to = '/forgot'));
    expectProblem(problems, LOGIN, '/steps/credentials/blocks/after/1/to', /no screen has a route for "\/forgot"/);
  });

  it('a query parameter nothing sends (a misspelt return_to)', () => {
    const file = 'screens/recoveryCodes.json';
    const problems = checkEditedCopy(file, (d) => (d.steps.codes.submit.outcome.navigate.query.return_to = '$query/rturn_to')).problems;
    expectProblem(problems, file, '/steps/codes/submit/outcome/navigate/query/return_to', /reads the query parameter "rturn_to", which no host declares/);
    // Control: the names a host declares and the ones links send are accepted.
    expect(problems.filter((p) => p.file === file)).toHaveLength(1);
  });

  it('duplicate route', () => {
    const problems = problemsAfter(LOGIN, (d) => d.routes.push({ path: '/login' }));
    expectProblem(problems, LOGIN, '/routes/2/path', /route "\/login" is already used by screens\/login\.json/);
  });

  it('invalid JSON file', () => {
    const root = copyCatalogue();
    writeFileSync(join(root, LOGIN), '{ "id": "login", ');
    const problems = checkProject({ root }).problems;
    expectProblem(problems, LOGIN, '', /invalid JSON/);
  });

  it('invalid JSON in a locale file', () => {
    const root = copyCatalogue();
    writeFileSync(join(root, 'locales/en-us/login.json'), '{ "title": ');
    expectProblem(checkProject({ root }).problems, 'locales/en-us/login.json', '', /invalid JSON/);
  });

  it('a step that does not exist', () => {
    const problems = problemsAfter(LOGIN, (d) => (d.steps.credentials.submit[2].outcomes.AUTHENTICATION_FAILURE = { step: 'secondFactor' }));
    expectProblem(problems, LOGIN, `${SUBMIT}/outcomes/AUTHENTICATION_FAILURE/step`, /step "secondFactor" does not exist \(steps: credentials\)/);
  });

  it('an initialStep that does not exist', () => {
    const problems = problemsAfter(LOGIN, (d) => (d.initialStep = 'start'));
    expectProblem(problems, LOGIN, '/initialStep', /step "start" does not exist/);
  });

  it('unknown action', () => {
    const problems = problemsAfter(
      LOGIN,
      (d) => (d.steps.credentials.submit[2].outcomes.TRIAL_EXPIRED = { actions: ['selfDestruct'], navigate: { to: '/trialExpired' } }),
    );
    expectProblem(problems, LOGIN, `${SUBMIT}/outcomes/TRIAL_EXPIRED/actions/0`, /unknown action "selfDestruct" \(registered: .*logoutAllSessions/);
  });

  it('unknown $env flag', () => {
    const problems = problemsAfter(LOGIN, (d) => (d.steps.credentials.blocks.after[2].when = ['!$staging', '$production']));
    expectProblem(problems, LOGIN, '/steps/credentials/blocks/after/2/when', /unknown environment flag "\$staging"/);
  });

  it('unknown content component', () => {
    const problems = problemsAfter(LOGIN, (d) => d.steps.credentials.blocks.after.push({ type: 'component', name: 'confetti' }));
    expectProblem(problems, LOGIN, '/steps/credentials/blocks/after/4/name', /unknown content component "confetti"/);
  });

  it('id not matching the file name', () => {
    const problems = problemsAfter(LOGIN, (d) => (d.id = 'signin'));
    expectProblem(problems, LOGIN, '/id', /id "signin" must equal the file name "login"/);
  });

  it('two verbs in one outcome', () => {
    const problems = problemsAfter(LOGIN, (d) => (d.steps.credentials.submit[2].outcomes.SUCCESS = { authenticate: true, step: 'credentials' }));
    const hit = problems.find((p) => p.file === LOGIN && p.pointer.startsWith(`${SUBMIT}/outcomes/SUCCESS`));
    expect(hit, problems.map(formatProblem).join('\n')).toBeDefined();
  });

  it('a probe on a field the step does not have', () => {
    const problems = problemsAfter(LOGIN, (d) => (d.steps.credentials.probes[0].field = 'username'));
    expectProblem(problems, LOGIN, '/steps/credentials/probes/0/field', /form field "username" does not exist/);
  });

  it("field errors of an outcome with a step name that step's fields", () => {
    const REGISTER = 'screens/register.json';
    const problems = problemsAfter(
      REGISTER,
      (d) => (d.steps.profile.submit.outcomes.EMAIL_ALREADY_REGISTERED.fieldErrors = { businessType: 'register.errors.emailTaken' }),
    );
    expectProblem(
      problems,
      REGISTER,
      '/steps/profile/submit/outcomes/EMAIL_ALREADY_REGISTERED/fieldErrors/businessType',
      /form field "businessType" does not exist in step "details"/,
    );
  });

  it('a plural key counts as present when its _other form is ("key" with a count)', () => {
    const problems = problemsAfter('screens/accountMoved.json', (d) => (d.steps.moved.blocks.before[1].text.key = 'accountMoved.countdownx'));
    expectProblem(problems, 'screens/accountMoved.json', '/steps/moved/blocks/before/1/text/key', /i18n key "accountMoved.countdownx" is missing/);
  });

  it('a missing default language', () => {
    const root = copyCatalogue();
    rmSync(join(root, 'locales/en-us'), { recursive: true });
    expect(checkProject({ root }).problems.some((p) => /the default language en-us is missing/.test(p.message))).toBe(true);
  });
});

describe('generate()', () => {
  it('throws CatalogueError on a broken catalogue and writes nothing', async () => {
    const root = copyCatalogue();
    edit(root, LOGIN, (d) => (d.steps.credentials.uiSchema.password['ui:widget'] = 'fancy'));
    const run = generate(root);
    await expect(run).rejects.toBeInstanceOf(CatalogueError);
    await expect(run).rejects.toThrow(/screens\/login\.json:\d+:\d+ at \/steps\/credentials\/uiSchema\/password\/ui:widget: unknown widget "fancy"/);
    expect(existsSync(join(root, 'src/generated'))).toBe(false);
  });
});
