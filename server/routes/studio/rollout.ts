/**
 * Rollout of a reviewed change (issue 38; docs/editing-screens.md "Rollout of a reviewed change"): a
 * change of texts only — locale files whose changed keys the spec does not fix — can run as an
 * experiment before everyone: variant A the live texts (the catalogue's), variant B the change's, for
 * every key it changes, at a share of the visitors and optionally for some branded hosts and
 * languages. Promoting publishes the change the normal way (./publish.ts) and ends the rollout;
 * stopping ends it, the live texts staying. Each step is recorded in the change's history.
 */
import type { ChangeRollout } from '../../../catalogue/studio-contract.js';
import type { Queryable } from '../../db/data.js';
import { endExperiment, runningRolloutOf, type VariantTexts } from '../../db/experiments.js';
import { isFixedText } from '../../services/experiments.js';
import { experimentSummary } from './api-experiments.js';
import type { Change } from './changes.js';
import type { StudioContext } from './context.js';

const LOCALE_FILE = /^locales\/([a-z]{2,3}(?:-[a-z0-9]{2,8})?)\/([A-Za-z0-9_-]+)\.json$/;

/** A locale file's texts by key ("<file>.<path>"); undefined when it is not an object of texts. */
function flatTexts(file: string, text: string | null): Map<string, string> | undefined {
  const found = new Map<string, string>();
  if (text === null) return found;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const walk = (node: unknown, key: string): boolean => {
    if (typeof node === 'string') return Boolean(found.set(key, node));
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return false;
    return Object.entries(node).every(([part, child]) => walk(child, `${key}.${part}`));
  };
  return walk(parsed, file) ? found : undefined;
}

/**
 * What a rollout of the change varies: the keys it changes and their new texts per language; or why
 * it cannot be rolled out (a file that is not a locale file, a text removed, nothing but formatting,
 * a text the spec fixes or a button label).
 */
export function rolloutTexts(
  change: Pick<Change, 'after' | 'before'>,
): { keys: string[]; texts: VariantTexts } | { refused: NonNullable<ChangeRollout['refused']> } {
  const texts: VariantTexts = {};
  for (const [path, after] of Object.entries(change.after)) {
    const match = LOCALE_FILE.exec(path);
    if (!match) return { refused: { reason: 'notTextsOnly' } };
    const [, lang = '', file = ''] = match;
    const now = flatTexts(file, after);
    const was = flatTexts(file, change.before[path] ?? null);
    if (!now || !was || [...was.keys()].some((key) => !now.has(key))) return { refused: { reason: 'notTextsOnly' } };
    for (const [key, value] of now) if (was.get(key) !== value) texts[key] = { ...texts[key], [lang]: value };
  }
  const keys = Object.keys(texts).sort();
  if (keys.length === 0) return { refused: { reason: 'notTextsOnly' } };
  const fixed = keys.find(isFixedText);
  if (fixed !== undefined) return { refused: { reason: 'fixedText', key: fixed } };
  return { keys, texts };
}

/** The change's rollout as its detail shows it: whether it can be rolled out, the keys, the one running. */
export async function changeRollout(ctx: StudioContext, change: Change): Promise<ChangeRollout> {
  const found = rolloutTexts(change);
  const running = await runningRolloutOf(ctx.data, change.id);
  return {
    ...('refused' in found ? { refused: found.refused, keys: [] } : { keys: found.keys }),
    ...(running ? { running: experimentSummary(running) } : {}),
  };
}

/** Ends the change's running rollout (promoted: its texts are published; stopped: the live texts stay) and records it; false when none ran. */
export async function endRollout(
  t: Queryable,
  ctx: StudioContext,
  step: { changeId: number; who: string; revision: number; to: 'promoted' | 'stopped' },
): Promise<boolean> {
  const running = await runningRolloutOf(t, step.changeId);
  if (!running) return false;
  const ended = await endExperiment(t, running.id, step.to, step.to === 'promoted' ? 'B' : null, ctx.now());
  if (ended) await ctx.changes.record(t, step.changeId, step.who, step.to === 'promoted' ? 'rollout-promoted' : 'rollout-stopped', step.revision);
  return ended;
}
