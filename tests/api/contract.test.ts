import fs from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { compile } from 'json-schema-to-typescript';
import { CONTRACT_DIR, META_SCHEMA_FILE, addCommonSchemas, loadContract, loadCommonSchemas } from '../../server/contract';

const files = fs
  .readdirSync(CONTRACT_DIR)
  .filter((f) => f.endsWith('.json') && f !== META_SCHEMA_FILE)
  .sort();
const read = (f: string) => JSON.parse(fs.readFileSync(path.join(CONTRACT_DIR, f), 'utf8')) as Record<string, unknown>;

const EXPECTED = [
  'authenticationState',
  'login',
  'samlInit',
  'mfaLogin',
  'u2fLogin',
  'configTotp',
  'configSmsotp',
  'configWebauthnInit',
  'configDuo',
  'loginTotp',
  'loginSmsotp',
  'configWebauthnComplete',
  'changePhone',
  'resetPasswordInit',
  'resetPasswordVerify',
  'resetPasswordCommit',
  'register',
  'registerInvite',
  'requestActivationEmail',
  'validateInvitation',
  'activate',
  'logout',
  'expiredExtension',
  'expiredPurchase',
  'expiredSpeakWithSomeone',
  'brandingGeneralData',
  'switchMfa',
  'switchMfaSession',
  'session',
  'appConfig',
  'botCheckChallenge',
  'helpCenterSsoToken',
];

function contractAjv() {
  return addCommonSchemas(new Ajv({ allErrors: true }));
}

describe('API contract (schemas/api)', () => {
  const meta = new Ajv({ allErrors: true }).compile(read(META_SCHEMA_FILE));

  it('has every operation of SPEC §7 and the chosen extra paths (others may be added)', () => {
    const names = files.map((f) => f.replace(/\.json$/, ''));
    for (const name of EXPECTED) expect(names, name).toContain(name);
  });

  it('common schemas compile and carry no $id', () => {
    const ajv = contractAjv();
    for (const [id, schema] of loadCommonSchemas()) {
      expect(schema.$id, id).toBeUndefined();
      expect(ajv.getSchema(id), id).toBeTypeOf('function');
    }
  });

  it('method + path pairs are unique', () => {
    const seen = new Set<string>();
    for (const f of files) {
      const op = read(f);
      const key = `${String(op.method)} ${String(op.path)}`;
      expect(seen.has(key), key).toBe(false);
      seen.add(key);
    }
  });

  for (const f of files) {
    describe(f, () => {
      const op = read(f);
      it('matches operation.schema.json', () => {
        const ok = meta(op);
        expect(meta.errors ?? [], JSON.stringify(meta.errors)).toEqual([]);
        expect(ok).toBe(true);
      });
      it('operation equals the file name', () => {
        expect(`${String(op.operation)}.json`).toBe(f);
      });
      it('request and response compile with ajv', () => {
        const ajv = contractAjv();
        if (op.request !== null) expect(typeof ajv.compile(op.request as object)).toBe('function');
        expect(typeof ajv.compile(op.response as object)).toBe('function');
      });
      it('has no $id anywhere and declares its path parameters', () => {
        expect(JSON.stringify(op)).not.toContain('"$id"');
        const params = [...String(op.path).matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
        const props = ((op.request as { properties?: object } | null)?.properties ?? {}) as Record<string, unknown>;
        for (const p of params) expect(Object.keys(props), String(p)).toContain(p);
      });
    });
  }

  it('shared refs resolve in validation (login response with nested common refs)', () => {
    const ajv = contractAjv();
    const validate = ajv.compile(read('login.json').response as object);
    expect(validate({ resultCode: 'MFA_REQUIRED', mfaType: 'TOTP', available_mfa: ['TOTP', 'SMSOTP'], extra: 1 })).toBe(true);
    expect(validate({ resultCode: 'MFA_REQUIRED', available_mfa: ['NOPE'] })).toBe(false);
    const req = ajv.compile(read('login.json').request as object);
    expect(req({ email: 'a@b.c', password: 'x', recaptchaToken: 't' })).toBe(true);
    expect(req({ email: 'a@b.c', password: 'x', recaptchaToken: 5 })).toBe(false);
    expect(req({ email: 'a@b.c', password: 'x', extra: true })).toBe(false);
  });

  it('server route schemas inline every ref', () => {
    const contract = loadContract();
    for (const name of contract.operations.keys()) {
      expect(JSON.stringify(contract.routeSchema(name))).not.toContain('$ref');
    }
  });

  it('json-schema-to-typescript resolves the shared refs', async () => {
    const op = read('login.json');
    const ts = await compile(op.response as never, 'LoginResponse', { cwd: CONTRACT_DIR, bannerComment: '', format: false });
    expect(ts).toContain('resultCode');
    expect(ts).toMatch(/"U2F_TOKEN"/);
    const sw = await compile(read('switchMfa.json').request as never, 'SwitchMfaRequest', { cwd: CONTRACT_DIR, bannerComment: '', format: false });
    expect(sw).toMatch(/"TOTP"/);
  }, 20000);
});
