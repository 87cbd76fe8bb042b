import { callOperation, type CallResult } from '../api/client';
import { BotCheckUnavailableError, isBotCheckRequired, noteBotCheckRequirement, type BotCheckProvider } from '../api/botcheck';
import { operations, type OperationName } from '../generated/operations';
import type { CallSpec, Outcome, Outcomes } from './types';
import { pickOutcome } from './outcomes';
import { resolveMapping, type Scope } from './scope';

/**
 * Outcomes every screen gets unless its own table names the code: conditions of the engine
 * itself rather than of an operation.
 */
export const ENGINE_OUTCOMES: Outcomes = {
  BOT_CHECK_UNAVAILABLE: { error: 'common.errors.botCheckUnavailable', report: true },
};

export function outcomeFor(outcomes: Outcomes | undefined, code: string): Outcome | undefined {
  if (outcomes && Object.prototype.hasOwnProperty.call(outcomes, code)) return outcomes[code];
  return pickOutcome(ENGINE_OUTCOMES, code) ?? pickOutcome(outcomes, code);
}

export function isTransportFailure(result: CallResult): boolean {
  return result.code === 'NETWORK_ERROR' || result.code === 'TIMEOUT' || result.status >= 500;
}

export interface CallDeps {
  botCheck: () => Promise<BotCheckProvider>;
  signal?: AbortSignal;
}

function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const timer = setTimeout(() => resolve(true), ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve(false);
    }, { once: true });
  });
}

/** Builds the request from the call's mapping, adds a bot-check token when required, calls. */
export async function performCall(call: CallSpec, scope: Scope, deps: CallDeps): Promise<CallResult> {
  const body = resolveMapping(call.body, scope);
  const op = operations[call.operation as OperationName];
  if (op?.acceptsBotCheckToken && isBotCheckRequired() && body.recaptchaToken === undefined) {
    try {
      const provider = await deps.botCheck();
      body.recaptchaToken = await provider.getToken(call.botCheckAction ?? call.operation);
    } catch (error) {
      if (!(error instanceof BotCheckUnavailableError)) console.error(error);
      return { code: 'BOT_CHECK_UNAVAILABLE', status: 0, ok: false, data: undefined };
    }
  }
  for (;;) {
    const result = await callOperation(call.operation, body, { resultFrom: call.resultFrom, signal: deps.signal });
    noteBotCheckRequirement(result.data);
    if (!call.retryEveryMs || !isTransportFailure(result)) return result;
    if (!(await sleep(call.retryEveryMs, deps.signal))) return result;
  }
}
