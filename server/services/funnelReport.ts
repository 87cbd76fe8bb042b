/**
 * A screen's funnel as the studio shows it (issue 38): per variant, its visitors, each step's shown,
 * submitted and left counts with the median time to submit, the top field errors and result codes,
 * and the completions; for two variants, the difference of their completion rates with its 95 %
 * interval (two-proportion normal approximation) and a verdict, or "too few" while the approximation
 * does not hold.
 */
import type { FunnelComparison, FunnelReport, FunnelStep, FunnelVariant } from '../../catalogue/studio-contract.js';
import type { Queryable } from '../db/data.js';
import { funnelCounts, funnelTimes, funnelVersions, funnelVisitors, topFunnelValues, type FunnelCountRow, type FunnelScope } from '../db/funnel.js';

/** The normal quantile of a two-sided 95 % interval. */
const Z95 = 1.959964;
/** Fewer visitors per variant than this, or fewer than 5 completions or non-completions: "not enough visitors yet". */
export const MIN_VISITORS = 30;
const MIN_CELL = 5;
/** Times read for the medians (the latest ones). */
const TIMES = 5000;
const TOP = 10;

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? null) : Math.round(((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2);
}

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

function stepsOf(counts: readonly FunnelCountRow[], variant: string, times: ReadonlyArray<{ variant: string; step: string | null; ms: number }>): FunnelStep[] {
  const mine = counts.filter((c) => c.variant === variant);
  const visitors = (kind: FunnelCountRow['kind'], step: string) => mine.find((c) => c.kind === kind && c.step === step)?.visitors ?? 0;
  const shown = mine.filter((c) => c.kind === 'step' && c.step !== null).sort((a, b) => b.visitors - a.visitors);
  return shown.map(({ step }) => {
    const name = step ?? '';
    return {
      step: name,
      shown: visitors('step', name),
      submitted: visitors('submit', name),
      left: visitors('leave', name),
      medianMs: median(times.filter((t) => t.variant === variant && t.step === name).map((t) => t.ms)),
    };
  });
}

export async function funnelReport(q: Queryable, scope: FunnelScope): Promise<FunnelReport> {
  const [counts, visitors, completions, times, errors, codes, versions] = await Promise.all([
    funnelCounts(q, scope),
    funnelVisitors(q, scope),
    funnelVisitors(q, scope, 'complete'),
    funnelTimes(q, scope, 'submit', TIMES),
    topFunnelValues(q, scope, 'fieldError', TOP * 4),
    topFunnelValues(q, scope, 'outcome', TOP * 4),
    funnelVersions(q, scope.screen, scope.since),
  ]);
  const variants: FunnelVariant[] = visitors.map(({ variant, visitors: n }) => ({
    variant,
    visitors: n,
    completed: completions.find((c) => c.variant === variant)?.visitors ?? 0,
    steps: stepsOf(counts, variant, times),
    fieldErrors: errors
      .filter((e) => e.variant === variant)
      .slice(0, TOP)
      .map((e) => ({ field: e.field ?? '', keyword: e.keyword ?? '', count: e.n })),
    resultCodes: codes
      .filter((c) => c.variant === variant)
      .slice(0, TOP)
      .map((c) => ({ code: c.code ?? '', count: c.n })),
  }));
  const compared = variants.filter((v) => v.variant !== '-');
  const [a, b] = compared;
  const comparison = a && b ? compareRates({ name: a.variant, n: a.visitors, k: a.completed }, { name: b.variant, n: b.visitors, k: b.completed }) : null;
  return { screen: scope.screen, version: scope.version ?? null, versions, since: scope.since, variants, comparison };
}
