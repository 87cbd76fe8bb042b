/**
 * Cryptographic primitives with no dependency of ours (the data layer, the services and the routes
 * all use them): random tokens and six-digit codes, the sha256 hex every stored code and token is
 * kept as, and a constant-time comparison.
 */
import crypto from 'node:crypto';

export const randomToken = (bytes = 32): string => crypto.randomBytes(bytes).toString('base64url');
export const sha256 = (value: string): string => crypto.createHash('sha256').update(value).digest('hex');
export const sixDigitCode = (): string => crypto.randomInt(0, 1_000_000).toString().padStart(6, '0');

export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && crypto.timingSafeEqual(ab, bb);
}
