import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportXliff } from '../../scripts/i18n/export';
import { formatImportProblem, importXliff } from '../../scripts/i18n/import';
import { readXliff } from '../../scripts/i18n/xliff';

/**
 * The translators' round trip (docs/translating.md): `npm run i18n:export` writes XLIFF 2.0 of what a
 * language lacks or what changed in English, a translation tool fills the targets, `npm run
 * i18n:import` checks every unit and merges. Each test works on a copy of locales/, schemas/ and
 * screens/ in a temporary folder, edited the way an outside tool edits the file: as text.
 */
const REPO = join(__dirname, '../..');
let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'fd-xliff-'));
  for (const dir of ['locales', 'schemas', 'screens']) cpSync(join(REPO, dir), join(root, dir), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const localeFile = (lang: string, file: string) => join(root, 'locales', lang, `${file}.json`);
const readJson = (lang: string, file: string) => JSON.parse(readFileSync(localeFile(lang, file), 'utf8')) as Record<string, unknown>;
function removeText(lang: string, file: string, key: string) {
  const doc = readJson(lang, file);
  delete doc[key];
  writeFileSync(localeFile(lang, file), `${JSON.stringify(doc, null, 2)}\n`);
}
/** What a translation tool does: a target after the unit's source. */
const withTarget = (xml: string, unit: string, target: string) =>
  xml.replace(new RegExp(`(<unit id="${unit.replace(/\./g, '\\.')}">[\\s\\S]*?</source>)`), `$1\n        <target>${target}</target>`);
const tsx = (script: string, args: string[]) =>
  spawnSync(join(REPO, 'node_modules/.bin/tsx'), [join(REPO, 'scripts/i18n', script), ...args, '--root', root], { cwd: REPO, encoding: 'utf8' });

// Commands run as a translator runs them (tsx processes): seconds each on a busy machine.
describe('an XLIFF round trip through an external file', { timeout: 60_000 }, () => {
  it('changes a German text: exported as pending with its English and notes, translated outside, imported in place', () => {
    removeText('de-de', 'login', 'submit');
    removeText('de-de', 'login', 'submitSso');
    const out = join(root, 'outside', 'de.xlf');
    const exported = tsx('export.ts', ['--lang', 'de-de', '--out', out]);
    expect(exported.status, exported.stderr).toBe(0);
    expect(exported.stdout).toContain('2 text(s) not yet in de-de');
    const xml = readFileSync(out, 'utf8');
    expect(xml).toContain('<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en-US" trgLang="de-DE">');
    expect(xml).toContain('<unit id="login.submit">');
    // The placeholder is a <ph> pointing into originalData, the note says where the text is shown.
    expect(xml).toMatch(/<data id="d1">\{\{idpName\}\}<\/data>/);
    expect(xml).toContain('<source>Sign in with <ph id="1" dataRef="d1" disp="{{idpName}}"/></source>');
    expect(xml).toContain('<note category="location">screens/login.json /steps/credentials/submit/1/label/key</note>');
    expect(xml).not.toContain('<unit id="login.title">');

    // The translator's tool fills the targets and saves the file.
    let translated = withTarget(xml, 'login.submit', 'Jetzt anmelden');
    translated = withTarget(translated, 'login.submitSso', 'Weiter mit <ph id="1" dataRef="d1"/>');
    writeFileSync(out, translated);
    const imported = tsx('import.ts', [out]);
    expect(imported.status, imported.stderr).toBe(0);
    expect(imported.stdout).toContain('2 text(s) written to locales/de-de/');
    const login = readJson('de-de', 'login');
    expect(login.submit).toBe('Jetzt anmelden');
    expect(login.submitSso).toBe('Weiter mit {{idpName}}');
    // In en-us's order, the rest of the file as it was.
    expect(Object.keys(login).slice(0, 4)).toEqual(['title', 'submit', 'submitSso', 'fields']);
    expect((login.fields as Record<string, string>).email).toBe('E-Mail');
  });

  it('with --since, an English text changed since a version comes with the current German to revise', () => {
    const git = (...args: string[]) => spawnSync('git', args, { cwd: root, encoding: 'utf8' });
    git('init', '-q');
    git('-c', 'user.name=t', '-c', 'user.email=t@example.test', 'add', '.');
    git('-c', 'user.name=t', '-c', 'user.email=t@example.test', 'commit', '-qm', 'v1');
    const en = readJson('en-us', 'login');
    writeFileSync(localeFile('en-us', 'login'), `${JSON.stringify({ ...en, forgotPassword: 'Forgot password?' }, null, 2)}\n`);

    const { xml, pending, changed } = exportXliff({ root, lang: 'de-de', since: 'HEAD' });
    expect(pending).toEqual([]);
    expect(changed).toEqual(['login.forgotPassword']);
    expect(xml).toContain('<source>Forgot password?</source>');
    expect(xml).toContain(`<target>${String(readJson('de-de', 'login').forgotPassword)}</target>`);
    expect(xml).toContain('The English changed since HEAD (it was: "Forgot your password?")');
    expect(() => exportXliff({ root, lang: 'de-de', since: 'no-such-version' })).toThrow(/no such version/);

    const file = join(root, 'de.xlf');
    writeFileSync(file, xml.replace(/<target>[^<]*<\/target>/, '<target>Kennwort vergessen?</target>'));
    const result = importXliff(root, file);
    expect(result.problems).toEqual([]);
    expect(result.merged).toEqual(['login.forgotPassword']);
    expect(readJson('de-de', 'login').forgotPassword).toBe('Kennwort vergessen?');
  });

  it('an ICU plural: the Arabic file asks for its six cases; a complete translation imports', () => {
    removeText('ar', 'accountMoved', 'countdown');
    const { xml } = exportXliff({ root, lang: 'ar' });
    expect(xml).toContain('ar needs the cases zero, one, two, few, many, other');
    expect(xml).toContain('{count, plural, one {You will be taken there in <ph id="1" dataRef="d1" disp="#"/> second.}');
    const file = join(root, 'ar.xlf');
    const target =
      '{count, plural, zero {الآن.} one {خلال ثانية واحدة.} two {خلال ثانيتين.} few {خلال <ph id="1" dataRef="d1"/> ثوانٍ.} many {خلال <ph id="2" dataRef="d1"/> ثانية.} other {خلال <ph id="3" dataRef="d1"/> ثانية.}}';
    writeFileSync(file, withTarget(xml, 'accountMoved.countdown', target));
    const result = importXliff(root, file);
    expect(result.problems).toEqual([]);
    expect(readJson('ar', 'accountMoved').countdown).toBe(
      '{count, plural, zero {الآن.} one {خلال ثانية واحدة.} two {خلال ثانيتين.} few {خلال # ثوانٍ.} many {خلال # ثانية.} other {خلال # ثانية.}}',
    );
  });
});

describe('an import that is refused names the file, the line and the unit, and writes nothing', { timeout: 60_000 }, () => {
  let xml: string;
  let before: string;
  beforeEach(() => {
    removeText('de-de', 'login', 'submitSso');
    removeText('de-de', 'login', 'forgotPassword');
    removeText('de-de', 'accountMoved', 'countdown');
    xml = exportXliff({ root, lang: 'de-de' }).xml;
    before = readFileSync(localeFile('de-de', 'login'), 'utf8');
  });

  const refused = (file: string, expected: RegExp, unit?: string) => {
    const path = join(root, 'de.xlf');
    writeFileSync(path, file);
    const result = importXliff(root, path);
    const lines = result.problems.map(formatImportProblem);
    expect(
      lines.some((line) => expected.test(line)),
      lines.join('\n') || 'no problem',
    ).toBe(true);
    if (unit) expect(result.problems.find((p) => expected.test(p.message))?.unit).toBe(unit);
    expect(result.problems.every((p) => p.file.endsWith('de.xlf'))).toBe(true);
    expect(result.merged).toEqual([]);
    expect(readFileSync(localeFile('de-de', 'login'), 'utf8')).toBe(before);
    return result;
  };
  const good = () => withTarget(withTarget(xml, 'login.forgotPassword', 'Passwort vergessen?'), 'login.submitSso', 'Weiter mit <ph id="1" dataRef="d1"/>');

  it('control: the same file, translated correctly, imports', () => {
    const path = join(root, 'de.xlf');
    writeFileSync(path, good());
    const result = importXliff(root, path);
    expect(result.problems).toEqual([]);
    expect(result.merged).toEqual(['login.submitSso', 'login.forgotPassword']);
    expect(result.untranslated).toEqual(['accountMoved.countdown']);
  });

  it('not well-formed XML, with its line', () => {
    const result = refused(good().replace('</source>', '</sourc>'), /de\.xlf:\d+:\d+: not well-formed XML/);
    expect(result.problems[0]?.line).toBeGreaterThan(1);
  });

  it('a DOCTYPE (no entity tricks)', () => {
    refused(good().replace('<xliff ', '<!DOCTYPE xliff [<!ENTITY x "boom">]>\n<xliff '), /DOCTYPE|not well-formed/);
  });

  it('a target language that is not one of ours', () => {
    refused(good().replace('trgLang="de-DE"', 'trgLang="ko-KR"'), /trgLang "ko-KR": not a language of the product/);
  });

  it('an unknown unit id', () => {
    refused(good().replace('<unit id="login.forgotPassword">', '<unit id="login.forgottenPassword">'), /unknown unit id/, 'login.forgottenPassword');
  });

  it('a placeholder dropped', () => {
    refused(withTarget(xml, 'login.submitSso', 'Mit SSO anmelden'), /drops \{\{idpName\}\}/, 'login.submitSso');
  });

  it('a placeholder added: a <ph> the English does not have, or a placeholder typed as text', () => {
    const invented = good()
      .replace('<data id="d1">{{idpName}}</data>', '<data id="d1">{{idpName}}</data>\n        <data id="d9">{{password}}</data>')
      .replace('Weiter mit <ph id="1" dataRef="d1"/>', 'Weiter mit <ph id="1" dataRef="d1"/> <ph id="2" dataRef="d9"/>');
    refused(invented, /placeholder \{\{password\}\} is not in the English text/, 'login.submitSso');
    refused(good().replace('Passwort vergessen?', 'Passwort {{password}} vergessen?'), /uses \{\{password\}\}/, 'login.forgotPassword');
  });

  it('markup injected: an element in the target, or HTML as text', () => {
    refused(good().replace('Passwort vergessen?', 'Passwort <b xmlns="">vergessen</b>?'), /markup injected: <b> is not allowed/, 'login.forgotPassword');
    refused(
      good().replace('Passwort vergessen?', 'Passwort &lt;img src=x onerror=alert(1)&gt;'),
      /markup injected: the text holds "<img/,
      'login.forgotPassword',
    );
  });

  it('ICU syntax broken, and plural cases the language does not have or lacks', () => {
    const plural = (target: string) => withTarget(good(), 'accountMoved.countdown', target);
    refused(
      plural('{count, plural, one {In <ph id="1" dataRef="d1"/> Sekunde.} other {In <ph id="2" dataRef="d1"/> Sekunden.}'),
      /ICU syntax/,
      'accountMoved.countdown',
    );
    refused(
      plural(
        '{count, plural, one {In <ph id="1" dataRef="d1"/> Sekunde.} few {In <ph id="2" dataRef="d1"/> Sekunden.} other {In <ph id="3" dataRef="d1"/> Sekunden.}}',
      ),
      /de-de has no plural form "few"/,
    );
    refused(plural('{count, plural, other {In <ph id="1" dataRef="d1"/> Sekunden.}}'), /lacks the form\(s\) one of de-de/);
  });

  it('a unit twice, and a source that is no longer the English text', () => {
    const unit = /( {4}<unit id="login\.forgotPassword">[\s\S]*?<\/unit>\n)/.exec(good())?.[1] ?? '';
    refused(good().replace(unit, unit + unit), /the unit appears twice/, 'login.forgotPassword');
    refused(good().replace('<source>Forgot your password?</source>', '<source>Forgot it?</source>'), /English text changed since this file was exported/);
  });

  it('the command exits 1 and lists every problem', () => {
    const path = join(root, 'de.xlf');
    writeFileSync(path, good().replace('trgLang="de-DE"', 'trgLang="xx"'));
    const run = tsx('import.ts', [path]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/de\.xlf:2:1: trgLang "xx"/);
    expect(run.stderr).toContain('nothing was imported');
  });
});

describe('the XLIFF reader', () => {
  it('keeps text exactly, and reads <ph> and foreign elements apart', () => {
    const { doc, problems } = readXliff(
      '<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en-US" trgLang="de-DE"><file id="f"><unit id="a.b"><segment><source>  x &amp; <ph id="1" dataRef="d1"/> y </source><target>z<mrk id="m">w</mrk></target></segment></unit></file></xliff>',
    );
    expect(problems).toEqual([]);
    const unit = doc?.files[0]?.units[0];
    expect(unit?.source).toEqual(['  x & ', expect.objectContaining({ ph: '1', dataRef: 'd1' }), ' y ']);
    expect(unit?.target).toEqual(['z', expect.objectContaining({ foreign: 'mrk' })]);
  });
});
