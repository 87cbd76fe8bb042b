/**
 * A screen's funnel as the studio shows it (issue 38): per variant, its visitors, each step's shown,
 * submitted and left counts with the median time to submit, the top field errors and result codes,
 * and the completions; for two variants, the difference of their completion rates with its 95 %
 * interval (two-proportion normal approximation) and a verdict, or "too few" while the approximation
 * does not hold.
 */
import type { FunnelComparison, FunnelReport, FunnelStep, FunnelVariant } from '../../catalogue/studio-contract.js';
import type { Database, Queryable } from '../db/data.js';
import { figuresFromAggregates, figuresFromEvents, type FunnelFigures, type FunnelScope } from '../db/funnelFigures.js';
import { ANY, dayOf, histogramMedian } from '../db/funnelHours.js';
import { rollUpFunnel } from './funnelRollup.js';

/** The normal quantile of a two-sided 95 % interval. */
const Z95 = 1.959964;
/** Fewer visitors per variant than this, or fewer than 5 completions or non-completions: "not enough visitors yet". */
export const MIN_VISITORS = 30;
const MIN_CELL = 5;
const TOP = 10;

/** Second minus first completion rate, in points, with its 95 % interval; "tooFew" when the normal approximation does not hold. */
export function compareRates(first: { name: string; n: number; k: number }, second: { name: string; n: number; k: number }): FunnelComparison {
  const base = { first: first.name, second: second.name };
  const cells = [first.k, first.n - first.k, second.k, second.n - second.k];
  if (first.n < MIN_VISITORS || second.n < MIN_VISITORS || cells.some((c) => c < MIN_CELL))
    return { ...base, difference: null, low: null, high: null, verdict: 'tooFew' };
  const p1 = first.k / first.n;
  const p2 = second.k / second.n;
  const se = Math.sqrt((p1 * (1 - p1)) / first.n + (p2 * (1 - p2)) / second.n);
  const points = (x: number) => Math.round(x * 1000) / 10;
  const difference = p2 - p1;
  const low = difference - Z95 * se;
  const high = difference + Z95 * se;
  const verdict = low > 0 ? 'secondBetter' : high < 0 ? 'firstBetter' : 'noDifference';
  return { ...base, difference: points(difference), low: points(low), high: points(high), verdict };
}

function stepsOf(figures: FunnelFigures, variant: string): FunnelStep[] {
  const mine = figures.visitors.filter((c) => c.variant === variant && c.step !== '' && c.step !== ANY);
  const visitors = (kind: 'step' | 'submit' | 'leave', step: string) => mine.find((c) => c.kind === kind && c.step === step)?.visitors ?? 0;
  // The most shown first; a tie by name, so that the order never depends on the engine.
  const shown = mine.filter((c) => c.kind === 'step').sort((a, b) => b.visitors - a.visitors || (a.step < b.step ? -1 : a.step > b.step ? 1 : 0));
  return shown.map(({ step }) => ({
    step,
    shown: visitors('step', step),
    submitted: visitors('submit', step),
    left: visitors('leave', step),
    medianMs: histogramMedian(figures.times.filter((t) => t.variant === variant && t.step === step)),
  }));
}

/** The report of a period's figures (for a period of whole UTC days: `since` is the start of one). */
export function reportOf(scope: FunnelScope, figures: FunnelFigures): FunnelReport {
  const anyOf = (variant: string, kind: string) => figures.visitors.find((v) => v.variant === variant && v.kind === kind && v.step === ANY)?.visitors ?? 0;
  const names = figures.visitors
    .filter((v) => v.kind === ANY && v.step === ANY)
    .map((v) => v.variant)
    .sort();
  const variants: FunnelVariant[] = names.map((variant) => ({
    variant,
    visitors: anyOf(variant, ANY),
    completed: anyOf(variant, 'complete'),
    steps: stepsOf(figures, variant),
    fieldErrors: figures.fieldErrors
      .filter((e) => e.variant === variant)
      .slice(0, TOP)
      .map((e) => ({ field: e.field, keyword: e.keyword, count: e.n })),
    resultCodes: figures.resultCodes
      .filter((c) => c.variant === variant)
      .slice(0, TOP)
      .map((c) => ({ code: c.code, count: c.n })),
  }));
  const compared = variants.filter((v) => v.variant !== '-');
  const [a, b] = compared;
  const comparison = a && b ? compareRates({ name: a.variant, n: a.visitors, k: a.completed }, { name: b.variant, n: b.visitors, k: b.completed }) : null;
  return { screen: scope.screen, version: scope.version ?? null, versions: figures.versions, since: scope.since, variants, comparison };
}

/** The period starts at the start of the UTC day of `since`: a visitor's hash is per day, so whole days count each visitor once. */
const wholeDays = (scope: FunnelScope): FunnelScope => ({ ...scope, since: dayOf(scope.since) });

/** The studio's funnel of a screen, from the hourly aggregates (the events taken so far rolled up first). */
export async function funnelReport(data: Database, scope: FunnelScope): Promise<FunnelReport> {
  await rollUpFunnel(data);
  const period = wholeDays(scope);
  return reportOf(period, await figuresFromAggregates(data, period, TOP * 4));
}

/** The same report from the raw events (the reference of the tests; what the bench measured before the aggregates). */
export async function funnelReportFromEvents(q: Queryable, scope: FunnelScope): Promise<FunnelReport> {
  const period = wholeDays(scope);
  return reportOf(period, await figuresFromEvents(q, period, TOP * 4));
}
