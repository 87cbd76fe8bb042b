import { callOperation } from '../client';
import { BotCheckUnavailableError, type BotCheckProvider } from './index';

/** The demo tenant's provider: the reference server issues a signed, single-use token. */
export class LocalProvider implements BotCheckProvider {
  readonly name = 'local';

  async getToken(action: string): Promise<string> {
    const result = await callOperation('botCheckToken', { action });
    const token = (result.data as { token?: unknown } | undefined)?.token;
    if (!result.ok || typeof token !== 'string') throw new BotCheckUnavailableError(`local token: ${result.code}`);
    return token;
  }
}
