/**
 * Bot-check providers. The server says when a token is needed (recaptchaRequired); the flow
 * runner then asks the configured provider for one and sends it as recaptchaToken.
 */
export { BotCheckUnavailableError, type BotCheckProvider } from './provider';
import type { BotCheckProvider } from './provider';

export type BotCheckConfig = { provider: 'altcha' } | { provider: 'recaptcha-enterprise'; siteKey: string };

let requiredNow = false;

/** Remembers, for this page, that the server demanded the bot check. */
export function noteBotCheckRequirement(response: unknown): void {
  if (response !== null && typeof response === 'object' && 'recaptchaRequired' in response) {
    requiredNow = (response as { recaptchaRequired?: unknown }).recaptchaRequired === true;
  }
}

export function isBotCheckRequired(): boolean {
  return requiredNow;
}

export async function createProvider(config: BotCheckConfig): Promise<BotCheckProvider> {
  if (config.provider === 'recaptcha-enterprise') {
    const { RecaptchaEnterpriseProvider } = await import('./recaptcha-enterprise');
    return new RecaptchaEnterpriseProvider(config.siteKey);
  }
  const { AltchaProvider } = await import('./altcha');
  return new AltchaProvider();
}
