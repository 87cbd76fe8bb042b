import type { CallSpec, Outcome, SharedOutcomes } from '../types';
import type { EngineHost, PrefetchTargets } from '../host';

/** At most this many paths per call: the host loads each one's chunk while the call is in flight. */
export const PREFETCH_LIMIT = 4;

const own = <T>(table: Record<string, T> | undefined, key: string): T | undefined =>
  table !== undefined && Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;

/**
 * Where a call's outcome table can lead: the navigate targets of its own outcomes, then of the shared
 * blocks it includes (the order outcomeFor looks them up in), as the catalogue writes them ('{name}'
 * placeholders kept), each once and at most PREFETCH_LIMIT; and whether one of them ends a sign-in.
 */
export function prefetchTargets(call: Pick<CallSpec, 'outcomes' | 'include'>, shared: SharedOutcomes): PrefetchTargets {
  const tables = [call.outcomes, ...(call.include ?? []).map((name) => own(shared.blocks, name))];
  const outcomes: Outcome[] = tables.flatMap((table) => Object.values(table ?? {}));
  const paths = [...new Set(outcomes.flatMap((outcome) => (outcome.navigate ? [outcome.navigate.to] : [])))].slice(0, PREFETCH_LIMIT);
  return { paths, authenticate: outcomes.some((outcome) => outcome.authenticate !== undefined && outcome.authenticate !== false) };
}

/**
 * Asks the host to start loading what the call can lead to, when it has something to load: never
 * waited for, and never the call's failure (a chunk that cannot load fails again where it is used).
 */
export function prefetchFor(host: EngineHost, call: Pick<CallSpec, 'outcomes' | 'include'>, shared: SharedOutcomes): void {
  if (!host.prefetch) return;
  try {
    const targets = prefetchTargets(call, shared);
    if (targets.paths.length > 0 || targets.authenticate) host.prefetch(targets);
  } catch (error) {
    console.warn('prefetch failed', error);
  }
}
