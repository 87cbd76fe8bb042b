import { BotCheckUnavailableError, type BotCheckProvider } from './provider';

/** SPEC §9: the bot-check script must be ready within 30 tries at 100 ms. */
export const READINESS_TRIES = 30;
export const READINESS_INTERVAL_MS = 100;
const SCRIPT_ORIGIN = 'https://www.google.com';

interface GrecaptchaEnterprise {
  ready(callback: () => void): void;
  execute(siteKey: string, options: { action: string }): Promise<string>;
}

function enterprise(): GrecaptchaEnterprise | undefined {
  const g = (globalThis as { grecaptcha?: { enterprise?: GrecaptchaEnterprise } }).grecaptcha;
  return g?.enterprise && typeof g.enterprise.execute === 'function' ? g.enterprise : undefined;
}

export async function waitFor<T>(probe: () => T | undefined, tries = READINESS_TRIES, intervalMs = READINESS_INTERVAL_MS): Promise<T> {
  for (let attempt = 0; attempt < tries; attempt += 1) {
    const value = probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new BotCheckUnavailableError('bot-check script not ready');
}

/** reCAPTCHA Enterprise: loads the provider's script once, then executes per action. */
export class RecaptchaEnterpriseProvider implements BotCheckProvider {
  readonly name = 'recaptcha-enterprise';
  private loading: Promise<void> | undefined;

  constructor(private readonly siteKey: string) {}

  private load(): Promise<void> {
    this.loading ??= new Promise<void>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = `${SCRIPT_ORIGIN}/recaptcha/enterprise.js?render=${encodeURIComponent(this.siteKey)}`;
      script.async = true;
      script.onload = () => resolve();
      script.onerror = () => reject(new BotCheckUnavailableError('bot-check script failed to load'));
      document.head.appendChild(script);
    });
    return this.loading;
  }

  async getToken(action: string): Promise<string> {
    await this.load();
    const api = await waitFor(enterprise);
    await new Promise<void>((resolve) => api.ready(resolve));
    return api.execute(this.siteKey, { action });
  }
}
