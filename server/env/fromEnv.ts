/**
 * buildApp's defaults taken from the environment when its options leave them out (tests pass options;
 * main.ts checks the whole environment first, config.ts): a mistake here is a ConfigError.
 */
import { ConfigError } from './parse.js';
import { checkDelivery, type DeliverySettings } from '../delivery/config.js';
import { checkDuo, type DuoSettings } from '../duo/config.js';

export interface RecaptchaConfig {
  siteKey: string;
  projectId: string;
  apiKey: string;
  /** Lowest acceptable score (default 0.5). */
  minScore?: number;
  /** Assessment API base URL (default https://recaptchaenterprise.googleapis.com). */
  apiBase?: string;
}

/** Duo from the environment; a mistake is a ConfigError (main.ts checks it before, with every other variable). */
export function duoFromEnv(): DuoSettings | undefined {
  const problems: string[] = [];
  const settings = checkDuo(process.env, problems);
  if (problems.length) throw new ConfigError(problems.join(' '));
  return settings;
}

/** The delivery settings of the environment; a mistake is a ConfigError (main.ts checks them before, with every other variable). */
export function deliveryFromEnv(): DeliverySettings {
  const problems: string[] = [];
  const settings = checkDelivery(process.env, problems);
  if (problems.length) throw new ConfigError(problems.join(' '));
  return settings;
}

/** A variable of the environment, unset when empty. */
export const env = (name: string): string | undefined => process.env[name] || undefined;

/** reCAPTCHA from the environment: the site key alone is not enough (tokens must be verified server side). */
export function recaptchaFromEnv(): RecaptchaConfig | undefined {
  const siteKey = env('RECAPTCHA_SITE_KEY');
  if (!siteKey) return undefined;
  const projectId = env('RECAPTCHA_PROJECT_ID');
  const apiKey = env('RECAPTCHA_API_KEY');
  if (!projectId || !apiKey) {
    throw new ConfigError(
      'RECAPTCHA_SITE_KEY needs RECAPTCHA_PROJECT_ID and RECAPTCHA_API_KEY: reCAPTCHA tokens are verified server side with the assessment API.',
    );
  }
  const minScore = env('RECAPTCHA_MIN_SCORE') === undefined ? undefined : Number(env('RECAPTCHA_MIN_SCORE'));
  if (minScore !== undefined && !(minScore >= 0 && minScore <= 1)) throw new ConfigError('RECAPTCHA_MIN_SCORE must be a number from 0 to 1.');
  return {
    siteKey,
    projectId,
    apiKey,
    ...(minScore !== undefined ? { minScore } : {}),
    ...(env('RECAPTCHA_API_URL') ? { apiBase: env('RECAPTCHA_API_URL') } : {}),
  };
}
