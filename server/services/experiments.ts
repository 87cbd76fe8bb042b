/**
 * Experiment assignment (issue 38): a browser's variant is a pure function of its id and the
 * experiment's id (SHA-256 → a bucket 0–99 → the variant whose cumulative share covers it), so it is
 * sticky, needs no row per visitor, and every instance agrees. A promoted experiment shows its winner
 * to everyone; a stopped one shows the catalogue's text. Only texts the spec does not fix may vary
 * (FIXED_TEXT_KEYS: the spec's texts and every button label are refused when an experiment is made).
 */
import crypto from 'node:crypto';
import type { Experiment, ExperimentVariant } from '../db/experiments.js';

/** The bucket 0–99 of a browser in an experiment. */
export function bucketOf(experimentId: string, browserId: string): number {
  const digest = crypto.createHash('sha256').update(`${experimentId}\n${browserId}`).digest();
  return digest.readUInt32BE(0) % 100;
}

/** The variant's name for this browser (the last variant when shares fall short of 100). */
export function variantOf(experiment: Pick<Experiment, 'id' | 'variants'>, browserId: string): string {
  const bucket = bucketOf(experiment.id, browserId);
  let upTo = 0;
  for (const variant of experiment.variants) {
    upTo += variant.share;
    if (bucket < upTo) return variant.name;
  }
  return experiment.variants.at(-1)?.name ?? '-';
}

/** What the browser sees of an experiment: its variant while it runs, the winner once promoted, nothing once stopped. */
export function shownVariant(experiment: Experiment, browserId: string): ExperimentVariant | undefined {
  if (experiment.status === 'stopped') return undefined;
  const name = experiment.status === 'promoted' ? experiment.winner : variantOf(experiment, browserId);
  return experiment.variants.find((v) => v.name === name);
}

/**
 * Text keys an experiment never varies: the spec's texts (SPEC §8's error catalogue and the fixed
 * labels of the sign-in pages) and button labels. Matched by prefix or exactly.
 */
const FIXED_PREFIXES = ['common.', 'validation.', 'login.', 'register.', 'resetPassword.', 'mfa.', 'mfaSetup.', 'activate'];
const BUTTON_WORDS = /\.(submit|button|create|notNow|never|continue|remove|removeAll|cancel|back)$/;

export function isFixedText(key: string): boolean {
  return FIXED_PREFIXES.some((p) => key.startsWith(p)) || BUTTON_WORDS.test(key);
}

/** Why a set of variants cannot run (undefined: it can). */
export function variantsProblem(textKey: string, variants: readonly ExperimentVariant[]): string | undefined {
  if (isFixedText(textKey)) return `${textKey} is a text the spec fixes or a button label: it never varies.`;
  if (variants.length < 2) return 'An experiment needs two variants or more.';
  if (new Set(variants.map((v) => v.name)).size !== variants.length) return 'Each variant needs its own name.';
  if (variants.reduce((sum, v) => sum + v.share, 0) !== 100) return 'The shares must add up to 100.';
  return undefined;
}
