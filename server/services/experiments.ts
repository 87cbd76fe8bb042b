/**
 * Experiment assignment (issue 38): a browser's variant is a pure function of its id and the
 * experiment's id (SHA-256 → a bucket 0–99 → the variant whose cumulative share covers it), so it is
 * sticky, needs no row per visitor, and every instance agrees. An experiment limited to branded hosts
 * or languages leaves every other visitor out (the catalogue's texts, counted outside it). A promoted
 * experiment shows its winner to everyone (a promoted rollout is published: the catalogue has its
 * texts); a stopped one shows the catalogue's texts. Only texts the spec does not fix may vary
 * (isFixedText: the spec's texts and every button label are refused when an experiment is made).
 */
import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { acceptedLanguages, pickLanguage } from '../../catalogue/language/languages.js';
import type { Experiment, ExperimentVariant } from '../db/experiments.js';
import { DEFAULT_LANGUAGE, LANGUAGES } from './lists.js';
import { requestHostname } from './publicUrl.js';

/** Who asks: the browser id, the host name it came to (lower case) and the language its page shows. */
export interface Visitor {
  id: string;
  host: string;
  language: string;
}

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

/** Whether the visitor is in the experiment's target (its hosts and languages; an empty list is every one). */
export function inTarget(experiment: Pick<Experiment, 'hosts' | 'languages'>, visitor: Visitor): boolean {
  const host = experiment.hosts.length === 0 || experiment.hosts.includes(visitor.host.toLowerCase());
  return host && (experiment.languages.length === 0 || experiment.languages.includes(visitor.language));
}

/** The variant a running experiment counts this visitor's events under ("-": outside its target). */
export function countedVariant(experiment: Experiment, visitor: Visitor): string {
  return inTarget(experiment, visitor) ? variantOf(experiment, visitor.id) : '-';
}

/** What the browser sees of an experiment: its variant while it runs, the winner once promoted, nothing once stopped or outside its target. */
export function shownVariant(experiment: Experiment, visitor: Visitor): ExperimentVariant | undefined {
  if (experiment.status === 'stopped' || !inTarget(experiment, visitor)) return undefined;
  // A promoted rollout was published: the catalogue shows its texts (and any later change of them).
  if (experiment.status === 'promoted' && experiment.changeId !== null) return undefined;
  const name = experiment.status === 'promoted' ? experiment.winner : variantOf(experiment, visitor.id);
  return experiment.variants.find((v) => v.name === name);
}

/**
 * The language a request's page shows: the one it names (`lang`, the page's own), else the first of
 * its Accept-Language the product has, as the page picks it (catalogue/language/languages.ts).
 */
export function visitorOf(req: FastifyRequest, id: string, lang: unknown): Visitor {
  const named = typeof lang === 'string' ? lang.toLowerCase() : undefined;
  const language =
    named !== undefined && LANGUAGES.includes(named)
      ? named
      : pickLanguage(acceptedLanguages(String(req.headers['accept-language'] ?? '')), LANGUAGES, DEFAULT_LANGUAGE);
  return { id, host: requestHostname(req).toLowerCase(), language };
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

/** Why a set of variants cannot run (undefined: it can). Every variant names the same keys. */
export function variantsProblem(variants: readonly ExperimentVariant[]): string | undefined {
  const keys = [...new Set(variants.flatMap((v) => Object.keys(v.texts)))];
  const fixed = keys.find(isFixedText);
  if (fixed) return `${fixed} is a text the spec fixes or a button label: it never varies.`;
  if (keys.length === 0) return 'An experiment varies one text or more.';
  if (variants.length < 2) return 'An experiment needs two variants or more.';
  if (new Set(variants.map((v) => v.name)).size !== variants.length) return 'Each variant needs its own name.';
  if (variants.reduce((sum, v) => sum + v.share, 0) !== 100) return 'The shares must add up to 100.';
  return undefined;
}

/**
 * Why a target cannot be used (undefined: it can): a host that is not a configured branded host
 * (UNKNOWN_HOST), or a language the product does not have (UNKNOWN_LANGUAGE), named.
 */
export function targetProblem(
  target: { hosts: readonly string[]; languages: readonly string[] },
  brandedHosts: readonly string[],
): { error: 'UNKNOWN_HOST' | 'UNKNOWN_LANGUAGE'; message: string } | undefined {
  const known = new Set(brandedHosts.map((h) => h.toLowerCase()));
  const host = target.hosts.find((h) => !known.has(h.toLowerCase()));
  if (host !== undefined)
    return { error: 'UNKNOWN_HOST', message: `"${host}" is not a branded host of this server (configured: ${[...known].join(', ') || 'none'}).` };
  const language = target.languages.find((l) => !LANGUAGES.includes(l.toLowerCase()));
  if (language !== undefined) return { error: 'UNKNOWN_LANGUAGE', message: `"${language}" is not a language of the product (${LANGUAGES.join(', ')}).` };
  return undefined;
}

/** A target as stored: host names and language tags in lower case, each once. */
export const normalTarget = (target: { hosts?: readonly string[]; languages?: readonly string[] }) => ({
  hosts: [...new Set((target.hosts ?? []).map((h) => h.toLowerCase()))],
  languages: [...new Set((target.languages ?? []).map((l) => l.toLowerCase()))],
});

/** A running experiment a new one on `screen` varying `keys` would clash with: one per screen, and a text varies in one at a time. */
export function clashingExperiment(running: readonly Experiment[], screen: string, keys: readonly string[]): Experiment | undefined {
  return running.find((e) => e.status === 'running' && (e.screen === screen || e.variants.some((v) => Object.keys(v.texts).some((k) => keys.includes(k)))));
}
