/**
 * Password hashing with node's scrypt. Stored format: scrypt$N$r$p$saltB64url$hashB64url
 * (the parameters travel with the hash, so the cost can change without invalidating old hashes).
 */
import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(crypto.scrypt) as (pw: crypto.BinaryLike, salt: crypto.BinaryLike, keylen: number, opts: crypto.ScryptOptions) => Promise<Buffer>;
const KEYLEN = 32;

export interface PasswordService {
  hash(password: string): Promise<string>;
  verify(password: string, stored: string | null | undefined): Promise<boolean>;
}

export function createPasswordService(cost = 16384): PasswordService {
  if (!Number.isInteger(Math.log2(cost)) || cost < 2) throw new Error('scrypt cost must be a power of two');
  const r = 8;
  const p = 1;
  const params = (N: number) => ({ N, r, p, maxmem: 256 * N * r + 1024 * 1024 });

  async function hash(password: string): Promise<string> {
    const salt = crypto.randomBytes(16);
    const key = await scrypt(password.normalize('NFC'), salt, KEYLEN, params(cost));
    return `scrypt$${cost}$${r}$${p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
  }

  // A hash to burn the same time on when the account does not exist or has no password.
  let dummy: Promise<string> | undefined;

  async function verify(password: string, stored: string | null | undefined): Promise<boolean> {
    if (!stored) {
      dummy ??= hash(crypto.randomBytes(12).toString('base64url'));
      await verify(password, await dummy);
      return false;
    }
    const parts = stored.split('$');
    if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
    const [, n, rr, pp, salt, expected] = parts as [string, string, string, string, string, string];
    const N = Number(n);
    const want = Buffer.from(expected, 'base64url');
    const got = await scrypt(password.normalize('NFC'), Buffer.from(salt, 'base64url'), want.length, { N, r: Number(rr), p: Number(pp), maxmem: 256 * N * Number(rr) + 1024 * 1024 });
    return got.length === want.length && crypto.timingSafeEqual(got, want);
  }

  return { hash, verify };
}
