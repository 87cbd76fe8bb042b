import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkProject, formatProblem, type CheckResult, type Problem } from '../../catalogue/check/check';
import { CheckCache } from '../../catalogue/check/files';

/**
 * One test per kind of mistake the catalogue check closes (issue 19): each edit is one a product
 * manager makes by hand, checked in memory (the files overlay) against the real catalogue, and each
 * problem must name the file, line:column of the offending text, the JSON pointer, the reason and —
 * where a valid name is close — what was meant.
 */
const repo = resolve(__dirname, '../..');
type Json = Record<string, any>;
const cache = new CheckCache();

function checkEdited(edits: Record<string, (doc: Json) => void>): CheckResult & { texts: Record<string, string> } {
  const texts: Record<string, string> = {};
  for (const [file, change] of Object.entries(edits)) {
    const doc = JSON.parse(readFileSync(join(repo, file), 'utf8')) as Json;
    change(doc);
    texts[file] = JSON.stringify(doc, null, 2);
  }
  return { ...checkProject({ root: repo }, { cache, files: texts }), texts };
}

/** The one problem at a pointer; its line:column points at the text it names. */
function problemAt(result: ReturnType<typeof checkEdited>, file: string, pointer: string, reason: RegExp, suggestion?: string, lineText?: RegExp): Problem {
  const hit = result.problems.find((p) => p.file === file && p.pointer === pointer);
  expect(hit, `no problem at ${file}#${pointer}; got:\n${result.problems.map(formatProblem).join('\n')}`).toBeDefined();
  const problem = hit as Problem;
  expect(problem.message).toMatch(reason);
  expect(problem.suggestion).toBe(suggestion);
  if (suggestion) expect(problem.message).toContain(`did you mean "${suggestion}"?`);
  expect(problem.line).toBeGreaterThan(0);
  expect(problem.column).toBeGreaterThan(0);
  if (lineText) {
    const text = result.texts[file] ?? readFileSync(join(repo, file), 'utf8');
    expect((text.split('\n')[(problem.line ?? 1) - 1] ?? '').slice((problem.column ?? 1) - 1)).toMatch(lineText);
  }
  return problem;
}

const LOGIN = 'screens/login.json';
const MFA = 'screens/mfa.json';
const SHARED = 'screens/shared/outcomes.json';
const credentials = (d: Json) => d.steps.credentials;
const loginSubmit = (d: Json) => d.steps.credentials.submit[2];

describe('ui: keys are the ones the meta-schema lists', () => {
  it('a misspelt ui: key', () => {
    const r = checkEdited({
      [LOGIN]: (d) => {
        const ui = credentials(d).uiSchema.email;
        ui['ui:autocompleet'] = ui['ui:autocomplete'];
        delete ui['ui:autocomplete'];
      },
    });
    problemAt(r, LOGIN, '/steps/credentials/uiSchema/email/ui:autocompleet', /^unknown UI key "ui:autocompleet"/, 'ui:autocomplete', /^"ui:autocompleet"/);
  });

  it('a ui: key in the wrong case', () => {
    const r = checkEdited({
      [LOGIN]: (d) => {
        const ui = credentials(d).uiSchema.password;
        ui['ui:hiddenwhen'] = ui['ui:hiddenWhen'];
        delete ui['ui:hiddenWhen'];
      },
    });
    problemAt(r, LOGIN, '/steps/credentials/uiSchema/password/ui:hiddenwhen', /^unknown UI key "ui:hiddenwhen"/, 'ui:hiddenWhen', /^"ui:hiddenwhen"/);
  });

  it('a misspelt autocomplete token', () => {
    const r = checkEdited({ [LOGIN]: (d) => (credentials(d).uiSchema.email['ui:autocomplete'] = 'usernme') });
    problemAt(r, LOGIN, '/steps/credentials/uiSchema/email/ui:autocomplete', /must be one of/, undefined, /^"ui:autocomplete": "usernme"/);
  });
});

describe('widget options against the schema each widget declares', () => {
  it('a misspelt option key', () => {
    const r = checkEdited({
      [MFA]: (d) => {
        const o = d.steps.verify.uiSchema.duo['ui:options'];
        o.urlFom = o.urlFrom;
        delete o.urlFrom;
      },
    });
    problemAt(
      r,
      MFA,
      '/steps/verify/uiSchema/duo/ui:options/urlFom',
      /^widget "duo" has no option "urlFom" \(options: urlFrom, channelFrom, codeField\)/,
      'urlFrom',
      /^"urlFom"/,
    );
  });

  it('an option value outside its list', () => {
    const r = checkEdited({ [MFA]: (d) => (d.steps.verify.uiSchema.credential['ui:options'].mode = 'authentcate') });
    problemAt(r, MFA, '/steps/verify/uiSchema/credential/ui:options/mode', /option mode must be one of authenticate, register/, 'authenticate');
  });

  it('an option naming a context value nothing sets', () => {
    const r = checkEdited({ [MFA]: (d) => (d.steps.verify.uiSchema.mfaType['ui:options'].availableFrom = 'available_mf') });
    problemAt(r, MFA, '/steps/verify/uiSchema/mfaType/ui:options/availableFrom', /^context value "available_mf" is never set on this screen/, 'available_mfa');
  });
});

describe('required, ui:order and uiSchema entries name properties', () => {
  it('required naming no property', () => {
    const r = checkEdited({ [LOGIN]: (d) => (credentials(d).schema.required = ['email', 'pasword']) });
    problemAt(r, LOGIN, '/steps/credentials/schema/required/1', /"required" names "pasword", which is not a property of this form/, 'password', /^"pasword"/);
  });

  it('ui:order naming no property', () => {
    const r = checkEdited({ [LOGIN]: (d) => (credentials(d).uiSchema['ui:order'] = ['email', 'pasword', 'staySignedIn']) });
    problemAt(r, LOGIN, '/steps/credentials/uiSchema/ui:order/1', /ui:order names "pasword", which is not a property/, 'password');
  });

  it('ui:order lacking a property (rjsf would not render)', () => {
    const r = checkEdited({ [LOGIN]: (d) => (credentials(d).uiSchema['ui:order'] = ['email', 'password', 'passkey']) });
    problemAt(r, LOGIN, '/steps/credentials/uiSchema/ui:order', /ui:order lacks "staySignedIn": list it or add "\*"/);
  });
});

describe('a form schema compiles strictly', () => {
  it('a misspelt keyword', () => {
    const r = checkEdited({
      [LOGIN]: (d) => {
        const p = credentials(d).schema.properties.password;
        p.maxLenght = p.maxLength;
        delete p.maxLength;
      },
    });
    problemAt(
      r,
      LOGIN,
      '/steps/credentials/schema/properties/password/maxLenght',
      /the form's JSON Schema is not valid: unknown keyword: "maxLenght"/,
      'maxLength',
      /^"maxLenght"/,
    );
  });

  it('a misspelt format', () => {
    const r = checkEdited({ [MFA]: (d) => (d.steps.verify.schema.properties.code.format = 'mfa-cod') });
    problemAt(r, MFA, '/steps/verify/schema/properties/code/format', /unknown format "mfa-cod"/, 'mfa-code');
  });
});

describe('the operation contract', () => {
  it('a result code the operation never answers', () => {
    const r = checkEdited({
      [LOGIN]: (d) => {
        const o = loginSubmit(d).outcomes;
        o.MFA_REQUIRD = { navigate: { to: '/mfa' } };
      },
    });
    problemAt(r, LOGIN, '/steps/credentials/submit/2/outcomes/MFA_REQUIRD', /^operation "login" never answers "MFA_REQUIRD"/, 'MFA_REQUIRED', /^"MFA_REQUIRD"/);
  });

  it('a $response pointer to a field the answer does not have', () => {
    const r = checkEdited({ [LOGIN]: (d) => (credentials(d).probes[0].outcomes.SSO.assign.idpName = '$response/idpNam') });
    problemAt(
      r,
      LOGIN,
      '/steps/credentials/probes/0/outcomes/SSO/assign/idpName',
      /^the answer of operation "authenticationState" has no "\/idpNam"/,
      '$response/idpName',
    );
  });

  it('a resultFrom the answer does not have', () => {
    const r = checkEdited({ [LOGIN]: (d) => (credentials(d).probes[0].resultFrom = '/authSate') });
    problemAt(r, LOGIN, '/steps/credentials/probes/0/resultFrom', /has no "\/authSate"/, '/authState');
  });

  it('a bot-check action the server would refuse', () => {
    const r = checkEdited({ [LOGIN]: (d) => (loginSubmit(d).botCheckAction = 'logn') });
    problemAt(r, LOGIN, '/steps/credentials/submit/2/botCheckAction', /the bot-check action of operation "login" is "login"/, 'login');
  });
});

describe('the context: reads against what sets it', () => {
  it('a $ctx value nothing sets', () => {
    const r = checkEdited({
      [LOGIN]: (d) => (
        (loginSubmit(d).outcomes.SSO_REQUIRED = { assign: { sso: true }, resubmit: true }),
        (credentials(d).submit[1].label.values.idpName = '$ctx/idpNme')
      ),
    });
    problemAt(r, LOGIN, '/steps/credentials/submit/1/label/values/idpName', /^context value "idpNme" is never set on this screen \(set: .*idpName/, 'idpName');
  });

  it('a condition on a flag nothing defines', () => {
    const r = checkEdited({ [LOGIN]: (d) => (credentials(d).uiSchema.password['ui:hiddenWhen'] = 'ssso') });
    problemAt(r, LOGIN, '/steps/credentials/uiSchema/password/ui:hiddenWhen', /^context value "ssso" is never set/, 'sso');
  });

  it('a condition value the field never takes', () => {
    const r = checkEdited({ [MFA]: (d) => (d.steps.verify.blocks.before[0].when = 'mfaType=TOPT') });
    problemAt(r, MFA, '/steps/verify/blocks/before/0/when', /"mfaType" is never "TOPT" \(its values: U2F_TOKEN, TOTP, DUO, SMSOTP\)/, 'TOTP');
  });

  it('a value set that nothing reads', () => {
    const r = checkEdited({ [LOGIN]: (d) => (credentials(d).probes[0].outcomes['*'].assign = { so: false }) });
    problemAt(r, LOGIN, '/steps/credentials/probes/0/outcomes/*/assign/so', /^context value "so" is set but nothing on this screen reads it/, 'sso');
  });
});

describe('hand-offs to the next screen', () => {
  it('a state-parameter key the target screen does not declare', () => {
    const r = checkEdited({
      [SHARED]: (d) => {
        const s = d.blocks.signInRouting.MFA_REQUIRED.navigate.stateParam;
        s.duoUrll = s.duoUrl;
        delete s.duoUrl;
      },
    });
    problemAt(
      r,
      SHARED,
      '/blocks/signInRouting/MFA_REQUIRED/navigate/stateParam/duoUrll',
      /^screen "mfa" does not read "duoUrll" from its state parameter/,
      'duoUrl',
      /^"duoUrll"/,
    );
  });

  it('history state the target screen does not read', () => {
    const r = checkEdited({ [SHARED]: (d) => (d.blocks.signInRouting.ACCOUNT_MOVED.navigate.routerState = { urll: '$response/url' }) });
    problemAt(r, SHARED, '/blocks/signInRouting/ACCOUNT_MOVED/navigate/routerState/urll', /^screen "accountMoved" does not read "urll"/, 'url');
  });

  it('a query parameter the target does not read', () => {
    const r = checkEdited({
      [SHARED]: (d) => {
        const q = d.blocks.signInRouting.MFA_REQUIRED.navigate.query;
        q.retun_to = q.return_to;
        delete q.return_to;
      },
    });
    problemAt(r, SHARED, '/blocks/signInRouting/MFA_REQUIRED/navigate/query/retun_to', /^screen "mfa" reads no query parameter "retun_to"/, 'return_to');
  });
});

describe('texts', () => {
  it('a ui:messages keyword that does not exist', () => {
    const r = checkEdited({ [LOGIN]: (d) => (credentials(d).uiSchema.email['ui:messages'] = { requird: 'login.errors.emailEmpty' }) });
    problemAt(
      r,
      LOGIN,
      '/steps/credentials/uiSchema/email/ui:messages/requird',
      /"requird" is not a validation keyword: this message would never be shown/,
      'required',
      /^"requird"/,
    );
  });

  it('an interpolation value the text has no placeholder for', () => {
    const r = checkEdited({ [LOGIN]: (d) => (credentials(d).submit[1].label.values = { idpNam: '$ctx/idpName' }) });
    problemAt(
      r,
      LOGIN,
      '/steps/credentials/submit/1/label/values/idpNam',
      /the text of "login.submitSso" has no \{\{idpNam\}\} placeholder \(it has: idpName\)/,
      'idpName',
    );
  });

  it('an unknown $env source', () => {
    const r = checkEdited({ [LOGIN]: (d) => (loginSubmit(d).body.returnTo = '$env/rturnTo') });
    problemAt(r, LOGIN, '/steps/credentials/submit/2/body/returnTo', /unknown "\$env\/rturnTo"/, '$env/returnTo');
  });
});

describe('the file itself', () => {
  it('a key written twice', () => {
    const r = checkProject(
      { root: repo },
      { cache, files: { [LOGIN]: readFileSync(join(repo, LOGIN), 'utf8').replace('"id": "login",', '"id": "login",\n  "id": "login",') } },
    );
    const hit = r.problems.find((p) => p.pointer === '/id');
    expect(hit?.message).toMatch(/"id" is written twice in this object/);
    expect(hit?.line).toBe(4);
  });

  it('one syntax error is one problem: no echo from the screens that link to it', () => {
    const text = readFileSync(join(repo, LOGIN), 'utf8').replace('"id": "login",', '"id": "login"');
    const { problems } = checkProject({ root: repo }, { cache, files: { [LOGIN]: text } });
    expect(problems.map(formatProblem)).toEqual([
      'screens/login.json:4:3: invalid JSON: a comma (,) is expected (is one missing at the end of the previous line?)',
    ]);
  });

  it('a screen that fails the meta-schema is one problem too; its routes still count', () => {
    const { problems } = checkEdited({ [LOGIN]: (d) => (credentials(d).uiSchema.email['ui:titel'] = 'login.fields.email') });
    expect(problems.map((p) => p.pointer)).toEqual(['/steps/credentials/uiSchema/email/ui:titel']);
  });
});

describe('pending translations', () => {
  it('a key other languages lack is pending, not a problem', () => {
    const r = checkEdited({ 'locales/de-de/login.json': (d) => delete d.fields.email, 'locales/en-us/login.json': (d) => (d.fields.nickname = 'Nickname') });
    expect(r.problems.map(formatProblem)).toEqual([]);
    const email = r.pending.find((p) => p.key === 'login.fields.email');
    expect(email).toMatchObject({ languages: ['de-de'], file: 'locales/en-us/login.json', pointer: '/fields/email' });
    expect(email?.line).toBeGreaterThan(0);
    expect(r.pending.find((p) => p.key === 'login.fields.nickname')?.languages).toHaveLength(17);
  });

  it('a key en-us lacks is a problem (nothing to fall back to)', () => {
    const r = checkEdited({ [LOGIN]: (d) => (credentials(d).uiSchema.email['ui:title'] = 'login.fields.nickname') });
    problemAt(r, LOGIN, '/steps/credentials/uiSchema/email/ui:title', /i18n key "login.fields.nickname" is missing in locales\/en-us/);
  });

  it('the real catalogue has nothing pending', () => {
    expect(checkProject({ root: repo }, { cache }).pending).toEqual([]);
  });
});
