/**
 * Bot-check providers. The server says when a token is needed (recaptchaRequired); the flow
 * runner then asks the configured provider for one and sends it as recaptchaToken.
 */
export interface BotCheckProvider {
  readonly name: string;
  /** A fresh token for this action; rejects with BotCheckUnavailableError when it cannot. */
  getToken(action: string): Promise<string>;
}

/** The provider could not produce a token: shown as 'Error getting needed data'. */
export class BotCheckUnavailableError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'BotCheckUnavailableError';
  }
}

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
