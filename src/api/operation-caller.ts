import { callOperation, type CallResult } from './client';
import { BotCheckUnavailableError, createProvider, isBotCheckRequired, noteBotCheckRequirement, type BotCheckConfig, type BotCheckProvider } from './botcheck';
import { operations, type OperationName } from '../generated/operations';

/**
 * Calls as screens make them: a bot-check token added when the server asked for one (the provider,
 * and its script, load only then), transport failures retried when the call says so. The app hands
 * this to the engine as its host's `call`.
 */
export interface CallerOptions {
  resultFrom?: string;
  botCheckAction?: string;
  retryEveryMs?: number;
  signal?: AbortSignal;
}

export function isTransportFailure(result: CallResult): boolean {
  return result.code === 'NETWORK_ERROR' || result.code === 'TIMEOUT' || result.status >= 500;
}

function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const timer = setTimeout(() => resolve(true), ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve(false);
      },
      { once: true },
    );
  });
}

export function operationCaller(config: BotCheckConfig) {
  let provider: Promise<BotCheckProvider> | undefined;
  // One trace per action: the call, its retries and its repeat with a bot-check token share `action`.
  const call = async (operation: string, input: Record<string, unknown>, options: CallerOptions = {}, action: object = {}): Promise<CallResult> => {
    const body = { ...input };
    const op = operations[operation as OperationName];
    if (op?.acceptsBotCheckToken && isBotCheckRequired() && body.recaptchaToken === undefined) {
      try {
        body.recaptchaToken = await (provider ??= createProvider(config)).then((p) => p.getToken(options.botCheckAction ?? operation));
      } catch (error) {
        if (!(error instanceof BotCheckUnavailableError)) console.error(error);
        return { code: 'BOT_CHECK_UNAVAILABLE', status: 0, ok: false, data: undefined };
      }
    }
    for (;;) {
      const result = await callOperation(operation, body, { resultFrom: options.resultFrom, signal: options.signal, action });
      noteBotCheckRequirement(result.data);
      // The server may demand the check of a call that carried none (registrations and reset requests
      // under load): made once more, now with a token, so the visitor never sees that refusal.
      if (op?.acceptsBotCheckToken && result.code === 'HUMAN_VERIFICATION_FAILED' && body.recaptchaToken === undefined && isBotCheckRequired())
        return call(operation, input, options, action);
      if (!options.retryEveryMs || !isTransportFailure(result)) return result;
      if (!(await sleep(options.retryEveryMs, options.signal))) return result;
    }
  };
  return call;
}
