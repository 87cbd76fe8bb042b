import type { CallResult, ResponseOf } from './client';
import { setTraceContext } from './trace-switch';

/**
 * GET /ws/app-config, asked once per page: the site facts (src/app/site.tsx), the redirect after a
 * sign-in (src/app/after-sign-in.ts) and the help centre (src/platform/helpcenter) read the same
 * answer. A failed call is asked again by the next reader. The operation client loads with the first
 * call: a page that carries the answer (adoptAppConfig) loads none of it at start-up.
 */
let answer: Promise<CallResult<ResponseOf<'appConfig'>>> | undefined;

export function appConfig(): Promise<CallResult<ResponseOf<'appConfig'>>> {
  const asked = (answer ??= import('./client').then(async ({ callOperation }) => {
    const result = await callOperation('appConfig');
    if (!result.ok) answer = undefined;
    else setTraceContext(result.data?.tracing === true);
    return result;
  }));
  // The client's chunk could not load: the next reader tries again.
  asked.catch(() => {
    if (answer === asked) answer = undefined;
  });
  return asked;
}

/** The answer the server already put in the page (server/spa/html.ts): no call, and no validator to load, at start-up. */
export function adoptAppConfig(data: ResponseOf<'appConfig'>): void {
  setTraceContext(data.tracing === true);
  answer = Promise.resolve({ code: 'SUCCESS', status: 200, ok: true, data });
}

/** Forgets the answer (tests that change what the server answers). */
export function forgetAppConfig(): void {
  answer = undefined;
}
