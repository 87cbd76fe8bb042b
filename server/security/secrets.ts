/**
 * The server's secrets. One master secret (APP_SECRET) from which every key is derived with HKDF, so
 * each key serves one purpose: signed tokens, the proof-of-work challenges, secrets at rest (TOTP
 * secrets, SSO keys, tenant credentials: "sealed"). Every instance must derive the same keys, so they
 * are never random per process:
 * - outside demo mode APP_SECRET is required (start-up fails with a clear message without it);
 * - in demo mode (dev tools on) a missing APP_SECRET is generated once and kept in the database
 *   (table server_secrets), which every instance on that file shares.
 * Rotation (docs/deploy.md): APP_SECRET_PREVIOUS is the secret being replaced, read only: what it
 * sealed still unseals and what it signed still verifies (until it expires), while everything new is
 * sealed and signed with APP_SECRET; `npm run admin -- rotate-secret` re-seals what is stored
 * (admin/rotateSecret.ts). Recovery codes are HMACs with a key of their own, made once and stored
 * sealed (so a rotation re-seals the key and every code keeps working).
 */
import crypto from 'node:crypto';
import type { Queryable } from '../db/data.js';
import { DEMO_APP_SECRET, keepServerSecret } from '../db/serverSecrets.js';
import { ConfigError, MIN_SECRET_LENGTH } from '../env/parse.js';

/** The keys one master secret derives. */
export interface DerivedKeys {
  /** HMAC key of the server's signed tokens (IdP requests, Duo setup). */
  tokenKey: string;
  /** HMAC key of ALTCHA challenges and of their derived-key signatures. */
  altchaKey: string;
  altchaKeySignatureKey: string;
  /** AES-256-GCM key of secrets at rest. */
  dataKey: Buffer;
}

export interface Secrets extends DerivedKeys {
  /** The keys of APP_SECRET_PREVIOUS during a rotation: they unseal and verify, never seal or sign. */
  previous?: DerivedKeys | undefined;
  /** HMAC key of recovery codes (stored sealed in server_secrets; the same across rotations). */
  recoveryCodeKey: string;
  /** HS256 secret of help-centre / academy tokens (shared with those sites), if any. */
  helpCenterJwt: string | undefined;
  /** Where APP_SECRET came from (reported at start-up). */
  source: 'environment' | 'database (demo)';
}

function derive(master: string, label: string, bytes = 32): Buffer {
  return Buffer.from(crypto.hkdfSync('sha256', master, 'frontdoor', label, bytes));
}

/** The AES key of secrets at rest (TOTP secrets, SSO keys): `npm run admin` seals with it too. */
export function dataKeyFrom(master: string): Buffer {
  return derive(master, 'data-encryption');
}

export function deriveKeys(master: string): DerivedKeys {
  return {
    tokenKey: derive(master, 'signed-tokens').toString('base64url'),
    altchaKey: derive(master, 'altcha-challenge').toString('base64url'),
    altchaKeySignatureKey: derive(master, 'altcha-key').toString('base64url'),
    dataKey: dataKeyFrom(master),
  };
}

/** Seals with the first key; unseals with whichever of them sealed the value. */
export interface Sealer {
  seal(plain: string): string;
  unseal(stored: string): string;
}

export function sealerOf(keys: readonly Buffer[]): Sealer {
  const [current] = keys;
  if (!current) throw new Error('a sealer needs a key');
  return {
    seal: (plain) => encrypt(current, plain),
    unseal(stored) {
      for (const key of keys.slice(0, -1)) {
        try {
          return decrypt(key, stored);
        } catch {
          // Sealed under another of the keys (a rotation in progress): try the next.
        }
      }
      return decrypt(keys.at(-1) as Buffer, stored);
    },
  };
}

/** The sealer of APP_SECRET (and APP_SECRET_PREVIOUS while rotating): the server's, and `npm run admin`'s. */
export function sealerFromSecrets(appSecret: string, previous?: string): Sealer {
  return sealerOf([dataKeyFrom(appSecret), ...(previous ? [dataKeyFrom(previous)] : [])]);
}

const RECOVERY_CODE_KEY = 'recovery-code-key';

/**
 * The recovery codes' HMAC key, made once per database and kept sealed. A database whose codes were
 * hashed before this key existed used the token key of its secret: that becomes the stored key (the
 * previous secret's while a rotation is under way), so those codes keep working.
 */
async function recoveryCodeKey(q: Queryable, sealer: Sealer, legacy: string): Promise<string> {
  return sealer.unseal(await keepServerSecret(q, RECOVERY_CODE_KEY, sealer.seal(legacy), Date.now()));
}

/** The demo secret of this database, created by the first instance that needs it. */
async function demoSecret(q: Queryable, name: string): Promise<string> {
  // Two instances starting together: the first insert wins, both read the same value.
  return keepServerSecret(q, name, crypto.randomBytes(48).toString('base64url'), Date.now());
}

export interface SecretOptions {
  appSecret: string | undefined;
  /** APP_SECRET_PREVIOUS: the secret a rotation replaces. */
  previousAppSecret?: string | undefined;
  helpCenterJwtSecret: string | undefined;
  /** Help-centre or academy hosts are configured: their token secret is needed. */
  helpCenterConfigured: boolean;
  demo: boolean;
}

export async function loadSecrets(q: Queryable, options: SecretOptions): Promise<Secrets> {
  let master = options.appSecret;
  if (master !== undefined && master.length < MIN_SECRET_LENGTH) {
    throw new ConfigError(`APP_SECRET must be at least ${MIN_SECRET_LENGTH} characters long (e.g. the output of \`openssl rand -base64 48\`).`);
  }
  if (master === undefined && !options.demo) {
    throw new ConfigError(
      'APP_SECRET is required outside demo mode: a random string of at least 32 characters, the same on every instance (e.g. `openssl rand -base64 48`). For the demo tenant run `npm start` (or add --demo).',
    );
  }
  const source = master === undefined ? 'database (demo)' : 'environment';
  master ??= await demoSecret(q, DEMO_APP_SECRET);

  let helpCenterJwt = options.helpCenterJwtSecret;
  if (helpCenterJwt !== undefined && helpCenterJwt.length < MIN_SECRET_LENGTH) {
    throw new ConfigError(`HELPCENTER_JWT_SECRET must be at least ${MIN_SECRET_LENGTH} characters long.`);
  }
  if (helpCenterJwt === undefined && options.helpCenterConfigured && !options.demo) {
    throw new ConfigError(
      'HELPCENTER_JWT_SECRET is required when HELPCENTER_HOST, HELPCENTER_GOVERNMENT_HOST or ACADEMY_HOSTS is set (the secret the help centre verifies its tokens with).',
    );
  }
  // Demo: the demo help centre runs in this server, so a derived secret serves.
  if (helpCenterJwt === undefined && options.demo) helpCenterJwt = derive(master, 'helpcenter-jwt').toString('base64url');

  const previousSecret = options.previousAppSecret;
  if (previousSecret !== undefined && (previousSecret.length < MIN_SECRET_LENGTH || previousSecret === master))
    throw new ConfigError('APP_SECRET_PREVIOUS must be the secret a rotation replaces: at least 32 characters, and not APP_SECRET.');
  const keys = deriveKeys(master);
  const previous = previousSecret === undefined ? undefined : deriveKeys(previousSecret);
  const sealer = sealerOf([keys.dataKey, ...(previous ? [previous.dataKey] : [])]);
  return {
    ...keys,
    previous,
    recoveryCodeKey: await recoveryCodeKey(q, sealer, (previous ?? keys).tokenKey),
    helpCenterJwt,
    source,
  };
}

const ENCRYPTED = 'enc1:';

export function isEncrypted(value: string): boolean {
  return value.startsWith(ENCRYPTED);
}

/** AES-256-GCM: "enc1:" + base64url(iv | tag | ciphertext). */
export function encrypt(key: Buffer, plain: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ENCRYPTED + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** The clear text of encrypt()'s output; throws when the value was not made with this key. */
export function decrypt(key: Buffer, value: string): string {
  if (!isEncrypted(value)) throw new Error('not an encrypted value');
  const raw = Buffer.from(value.slice(ENCRYPTED.length), 'base64url');
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}
