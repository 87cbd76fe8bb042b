/**
 * The demo tenant's example experiment and its history (issue 38; docs/editing-screens.md "The demo's
 * experiment"): two wordings of the passkey offer's explanation (passkey.offer.text, a text the spec
 * does not fix; its title and buttons never vary), 50/50, and a week of generated funnel events for it
 * and for the sign-in, so the studio's funnel shows something on a fresh start. Generated from a fixed
 * seed: the same history every time (tests can count on it).
 */
import type { Queryable } from './data.js';
import { insertExperiment, type Experiment } from './experiments.js';
import { insertFunnelEvents, type FunnelEventRow } from './funnel.js';

export const DEMO_EXPERIMENT: Pick<Experiment, 'id' | 'screen' | 'variants'> = {
  id: 'passkey-offer-wording',
  screen: 'passkeyOffer',
  variants: [
    { name: 'A', share: 50, texts: { 'passkey.offer.text': {} } },
    {
      name: 'B',
      share: 50,
      texts: {
        'passkey.offer.text': {
          'en-us': 'Skip the password and the code next time: your fingerprint, face or screen lock is enough. A passkey never leaves your device.',
        },
      },
    },
  ],
};

/** Visitors of the generated history per variant, and how many of them create a passkey. */
export const DEMO_HISTORY = { visitorsPerVariant: 120, created: { A: 48, B: 66 } } as const;
const DAY = 24 * 60 * 60 * 1000;

/** A small deterministic generator (mulberry32): the same history on every seed (the funnel tests' histories too). */
export function seededRandom(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function visitorRows(variant: 'A' | 'B', i: number, created: boolean, now: number, next: () => number): FunnelEventRow[] {
  const at = now - Math.floor(next() * 7 * DAY);
  const base = { visitor: `demo-${variant}-${i}`, screen: DEMO_EXPERIMENT.screen, version: 'v0', variant, field: null, keyword: null };
  const ms = 2000 + Math.floor(next() * 9000);
  const row = (kind: FunnelEventRow['kind'], step: string, extra: Partial<FunnelEventRow> = {}): FunnelEventRow => ({
    ...base,
    created_at: at + (extra.ms ?? 0),
    kind,
    step,
    code: null,
    ms: null,
    ...extra,
  });
  const shown = row('step', 'offer');
  if (!created) return [shown, row('leave', 'offer', { ms })];
  return [
    shown,
    row('submit', 'offer', { ms }),
    row('outcome', 'offer', { code: 'SUCCESS', ms: ms + 400 }),
    row('complete', 'offer', { ms: ms + 400 }),
    row('step', 'created'),
  ];
}

/** The experiment and its history (inside the demo seed's transaction). */
export async function seedDemoFunnel(q: Queryable, now: number): Promise<void> {
  await insertExperiment(q, { ...DEMO_EXPERIMENT, status: 'running', winner: null, createdAt: now - 7 * DAY });
  const next = seededRandom(38);
  for (const variant of ['A', 'B'] as const) {
    const rows: FunnelEventRow[] = [];
    for (let i = 0; i < DEMO_HISTORY.visitorsPerVariant; i += 1) rows.push(...visitorRows(variant, i, i < DEMO_HISTORY.created[variant], now, next));
    // In batches: one statement's placeholders stay well under SQLite's limit.
    for (let at = 0; at < rows.length; at += 50) await insertFunnelEvents(q, rows.slice(at, at + 50));
  }
}
