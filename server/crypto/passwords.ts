/**
 * Password hashing: argon2id (@node-rs/argon2, a prebuilt binary inside the package) with OWASP's
 * parameters, stored as a PHC string ($argon2id$v=19$m=19456,t=2,p=1$salt$hash) that carries its own
 * parameters. Hashes of the earlier scrypt format (scrypt$N$r$p$salt$hash) are still verified, and
 * needsRehash() tells sign-in to replace them (and argon2 hashes of a lower cost) with a new hash.
 */
import crypto from 'node:crypto';
import { promisify } from 'node:util';
import { hash as argon2Hash, verify as argon2Verify } from '@node-rs/argon2';

export interface Argon2Cost {
  /** KiB of memory. */
  memoryCost: number;
  /** Passes. */
  timeCost: number;
  parallelism: number;
}

/** OWASP Password Storage Cheat Sheet: argon2id, 19 MiB, 2 passes, 1 lane. */
export const ARGON2_COST: Argon2Cost = { memoryCost: 19456, timeCost: 2, parallelism: 1 };

export interface PasswordService {
  readonly cost: Argon2Cost;
  hash(password: string): Promise<string>;
  /** Unknown accounts and accounts without a password cost a dummy hash of the same time, then false. */
  verify(password: string, stored: string | null | undefined): Promise<boolean>;
  /** The stored hash is legacy scrypt or argon2 below the current cost: hash the password again. */
  needsRehash(stored: string): boolean;
}

const scrypt = promisify(crypto.scrypt) as (pw: crypto.BinaryLike, salt: crypto.BinaryLike, keylen: number, opts: crypto.ScryptOptions) => Promise<Buffer>;

/** The legacy format, verify only. */
async function verifyScrypt(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6) return false;
  const [, n, rr, pp, salt, expected] = parts as [string, string, string, string, string, string];
  const N = Number(n);
  const r = Number(rr);
  if (!Number.isInteger(Math.log2(N)) || N > 2 ** 20 || !(r >= 1 && r <= 32)) return false;
  const want = Buffer.from(expected, 'base64url');
  const got = await scrypt(password, Buffer.from(salt, 'base64url'), want.length, { N, r, p: Number(pp), maxmem: 256 * N * r + 1024 * 1024 });
  return got.length === want.length && crypto.timingSafeEqual(got, want);
}

const PHC = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/;

export function createPasswordService(cost: Argon2Cost = ARGON2_COST): PasswordService {
  const hash = (password: string) => argon2Hash(password.normalize('NFC'), cost);

  // A hash to burn the same time on when the account does not exist or has no password.
  let dummy: Promise<string> | undefined;

  async function verify(password: string, stored: string | null | undefined): Promise<boolean> {
    const pw = password.normalize('NFC');
    if (!stored) {
      dummy ??= hash(crypto.randomBytes(12).toString('base64url'));
      await argon2Verify(await dummy, pw).catch(() => false);
      return false;
    }
    if (stored.startsWith('scrypt$')) return verifyScrypt(pw, stored);
    if (!PHC.test(stored)) return false;
    return argon2Verify(stored, pw).catch(() => false);
  }

  function needsRehash(stored: string): boolean {
    const m = PHC.exec(stored);
    if (!m) return true;
    return Number(m[1]) < cost.memoryCost || Number(m[2]) < cost.timeCost || Number(m[3]) !== cost.parallelism;
  }

  return { cost, hash, verify, needsRehash };
}
