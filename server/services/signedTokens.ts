/**
 * Compact HMAC-SHA256 signed tokens: base64url(JSON payload) "." base64url(mac).
 * Payload always has jti (random id), pur (purpose) and exp (ms). Single use is enforced by
 * recording the jti in used_tokens when the token is consumed.
 */
import crypto from 'node:crypto';
import type { Queryable } from '../db/data.js';
import { purgeUsedTokens, spendTokenId } from '../db/usedTokens.js';
import { randomToken, safeEqual } from '../crypto/primitives.js';

export interface SignedPayload {
  jti: string;
  pur: string;
  exp: number;
  [k: string]: unknown;
}

export interface SignedTokens {
  sign(purpose: string, ttlMs: number, data?: Record<string, unknown>): string;
  /** Valid signature, purpose and not expired; does not consume. */
  read(token: string, purpose: string): SignedPayload | null;
  /** read() + single use (recorded in used_tokens, seen by every instance): null when already consumed. */
  consume(token: string, purpose: string): Promise<SignedPayload | null>;
}

/** Records a single-use id (forgetting the expired ones first); true for exactly one of any number of concurrent callers. */
export async function spendOnce(q: Queryable, jti: string, purpose: string, expiresAt: number, now: number): Promise<boolean> {
  await purgeUsedTokens(q, now);
  return spendTokenId(q, jti, purpose, expiresAt);
}

/**
 * Signs with the first key; a token signed by any of them reads (the others: APP_SECRET_PREVIOUS's
 * during a rotation, so what it signed stays valid until it expires).
 */
export function createSignedTokens(data: Queryable, keys: readonly string[], now: () => number): SignedTokens {
  const mac = (key: string, body: string) => crypto.createHmac('sha256', key).update(body).digest('base64url');
  const signing = keys[0];
  if (!signing) throw new Error('signed tokens need a key');

  const read = (token: string, purpose: string): SignedPayload | null => {
    if (typeof token !== 'string' || token.length > 4096) return null;
    const dot = token.indexOf('.');
    if (dot <= 0) return null;
    const body = token.slice(0, dot);
    const signature = token.slice(dot + 1);
    if (!keys.some((key) => safeEqual(mac(key, body), signature))) return null;
    let payload: SignedPayload;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as SignedPayload;
    } catch {
      return null;
    }
    if (!payload || payload.pur !== purpose || typeof payload.exp !== 'number' || payload.exp <= now()) return null;
    return payload;
  };

  return {
    sign(purpose, ttlMs, data = {}) {
      const payload = { ...data, jti: randomToken(16), pur: purpose, exp: now() + ttlMs };
      const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
      return `${body}.${mac(signing, body)}`;
    },
    read,
    async consume(token, purpose) {
      const payload = read(token, purpose);
      if (!payload) return null;
      return (await spendOnce(data, payload.jti, purpose, payload.exp, now())) ? payload : null;
    },
  };
}
