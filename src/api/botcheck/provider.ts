/** What a bot-check provider is (./altcha.ts, ./recaptcha-enterprise.ts); ./index.ts picks and loads one. */
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
