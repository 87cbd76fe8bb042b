/**
 * The funnel's privacy and intake (issue 38). The browser id is a random first-party cookie (fd_vid);
 * what is stored is an HMAC of it and the UTC day under a key of APP_SECRET, so neither the id nor a
 * visitor across days can be read back. Events carry names and codes only (the contract's patterns
 * refuse anything else); the server adds the variant (its own assignment, services/experiments.ts) and
 * the screen's version (the last studio version that changed the screen's file).
 */
import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiOperations } from '../../src/generated/api-types.js';
import type { Queryable } from '../db/data.js';
import { insertFunnelEvents, screenVersion, type FunnelEventRow } from '../db/funnel.js';
import type { Experiment } from '../db/experiments.js';
import { countedVariant, type Visitor } from './experiments.js';

export type FunnelEventInput = ApiOperations['funnelEvents']['request']['events'][number];

export const BROWSER_COOKIE = 'fd_vid';
const DAY = 24 * 60 * 60 * 1000;
/** The cookie lives a year: experiments stay sticky across visits (the hash changes daily anyway). */
const COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;
const ID_PATTERN = /^[A-Za-z0-9_-]{22,64}$/;

/** The browser's id from its cookie, or a new one set on the reply (HttpOnly: no script reads it). */
export function browserId(req: FastifyRequest, reply: FastifyReply, secure: boolean): string {
  const sent = req.cookies[BROWSER_COOKIE];
  if (sent !== undefined && ID_PATTERN.test(sent)) return sent;
  const id = crypto.randomBytes(18).toString('base64url');
  reply.setCookie(BROWSER_COOKIE, id, { path: '/', httpOnly: true, sameSite: 'lax', secure, maxAge: COOKIE_MAX_AGE_S });
  return id;
}

/** The stored visitor: HMAC-SHA256(key, day ‖ id), cut to 22 characters (132 bits; it only tells visitors apart). */
export function visitorHash(key: string, id: string, now: number): string {
  const day = Math.floor(now / DAY);
  return crypto.createHmac('sha256', key).update(`funnel-visitor:${day}:${id}`).digest('base64url').slice(0, 22);
}

/** The rows of one batch: each event with the visitor, its screen's variant and version, and the time. */
export async function funnelRows(
  q: Queryable,
  events: readonly FunnelEventInput[],
  visitor: Visitor & { hash: string },
  running: readonly Experiment[],
  now: number,
): Promise<FunnelEventRow[]> {
  const versions = new Map<string, string>();
  for (const screen of new Set(events.map((e) => e.screen))) versions.set(screen, `v${await screenVersion(q, screen)}`);
  return events.map((e) => {
    const experiment = running.find((x) => x.screen === e.screen);
    return {
      created_at: now,
      visitor: visitor.hash,
      screen: e.screen,
      version: versions.get(e.screen) ?? 'v0',
      variant: experiment ? countedVariant(experiment, visitor) : '-',
      kind: e.kind,
      step: e.step ?? null,
      field: e.kind === 'fieldError' ? (e.field ?? null) : null,
      keyword: e.kind === 'fieldError' ? (e.keyword ?? null) : null,
      code: e.kind === 'outcome' ? (e.code ?? null) : null,
      ms: e.ms ?? null,
    };
  });
}

/** Stores a batch: one INSERT (the hourly aggregates roll it up later: services/funnelRollup.ts). */
export async function storeFunnelRows(q: Queryable, rows: readonly FunnelEventRow[]): Promise<void> {
  await insertFunnelEvents(q, rows);
}
