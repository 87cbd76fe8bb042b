import type { Outcome, Outcomes, SharedOutcomes } from './types';

/** No shared outcomes (the file did not load, or the check has not answered yet): the generic error for every code, reported. */
export const NO_SHARED_OUTCOMES: SharedOutcomes = {
  defaults: {},
  visitorDefaults: {},
  blocks: {},
  unhandled: { error: 'common.errors.unexpected', report: true },
};

/** Which table an outcome came from (the studio's simulator says so). */
export type OutcomeSource = 'own' | 'block' | 'default' | 'star' | 'unhandled';

/** A table's own entry for a code (never an inherited name such as 'toString'). */
const pick = (outcomes: Outcomes | undefined, code: string): Outcome | undefined =>
  outcomes !== undefined && Object.prototype.hasOwnProperty.call(outcomes, code) ? outcomes[code] : undefined;

/**
 * The one place a result code becomes an outcome: the call's own entry, else an included block's,
 * else the shared default (the visitor defaults not for background calls: probes and on-enter calls
 * keep to their own '*' for network and time-out), else the call's '*', else an included block's '*',
 * else the unhandled outcome (never silence).
 */
export function outcomeFor(
  call: { outcomes?: Outcomes; include?: string[] },
  code: string,
  shared: SharedOutcomes,
  background = false,
): { outcome: Outcome; from: OutcomeSource } {
  const block = (key: string) => call.include?.map((name) => pick(shared.blocks[name], key)).find(Boolean);
  const candidates: Array<[Outcome | undefined, OutcomeSource]> = [
    [pick(call.outcomes, code), 'own'],
    [block(code), 'block'],
    [pick(shared.defaults, code), 'default'],
    [background ? undefined : pick(shared.visitorDefaults, code), 'default'],
    [pick(call.outcomes, '*'), 'star'],
    [block('*'), 'block'],
  ];
  const [outcome = shared.unhandled, from] = candidates.find(([found]) => found !== undefined) ?? [shared.unhandled, 'unhandled'];
  return { outcome, from };
}
