import type { ApiOperations } from '../generated/api-types';
import { loadResponseValidator, operations, validateResponse, type OperationName } from '../generated/operations';
import { readPointer } from '../../catalogue/language/json-pointer';
import { traceparent } from './trace-context';

/**
 * The one way the browser talks to the server: by operation name from schemas/api.
 * Every answer becomes a result code, so screens route transport failures like business ones:
 * NETWORK_ERROR (offline, refused), TIMEOUT, HTTP_<status>, INVALID_RESPONSE (not JSON or not
 * matching the response schema). Nothing here throws except for an unknown operation, which is
 * a programming error the catalogue check should have caught.
 */
export interface CallResult<Data = unknown> {
  code: string;
  status: number;
  ok: boolean;
  /** The answer: of the operation's response type when `ok` (it was validated against it). */
  data: Data | undefined;
}

/** The generated request and response types of an operation (schemas/api). */
export type RequestOf<N extends OperationName> = ApiOperations[N]['request'];
export type ResponseOf<N extends OperationName> = ApiOperations[N]['response'];

export interface CallOptions {
  /** Where the result code sits in a successful response (default /resultCode). */
  resultFrom?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** The action this call belongs to (any object its calls share: one trace, trace-context.ts); unset: a trace of its own. */
  action?: object;
}

export const DEFAULT_TIMEOUT_MS = 20_000;

export class UnknownOperationError extends Error {
  constructor(name: string) {
    super(`Unknown operation "${name}": it has no file in schemas/api/`);
    this.name = 'UnknownOperationError';
  }
}

export function isOperation(name: string): name is OperationName {
  return Object.prototype.hasOwnProperty.call(operations, name);
}

/** Fills {param} placeholders and returns the remaining input. */
export function buildRequest(name: OperationName, input: Record<string, unknown>): { url: string; method: string; body?: string } {
  const op = operations[name];
  const rest: Record<string, unknown> = { ...input };
  const path = op.path.replace(/\{([A-Za-z0-9_]+)\}/g, (_all, param: string) => {
    const value = rest[param];
    delete rest[param];
    return encodeURIComponent(value === undefined || value === null ? '' : String(value));
  });
  if (op.method === 'GET') {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(rest)) {
      if (value !== undefined && value !== null) query.set(key, String(value));
    }
    const qs = query.toString();
    return { url: qs ? `${path}?${qs}` : path, method: op.method };
  }
  return { url: path, method: op.method, body: op.hasBody ? JSON.stringify(rest) : undefined };
}

/** An operation the code names: its request and answer typed by the contract. */
export function callOperation<N extends OperationName>(name: N, input?: RequestOf<N>, options?: CallOptions): Promise<CallResult<ResponseOf<N>>>;
/** An operation a screen names (data: checked by the catalogue check, refused here when unknown). */
export function callOperation(name: string, input?: Record<string, unknown>, options?: CallOptions): Promise<CallResult>;
export async function callOperation(name: string, input: object = {}, options: CallOptions = {}): Promise<CallResult> {
  if (!isOperation(name)) throw new UnknownOperationError(name);
  const request = buildRequest(name, input as Record<string, unknown>);
  const first = await attempt(name, request, options);
  // A busy server (503 with Retry-After, server/errors.ts) rolled the call back: it is made once more
  // after the wait it names, when that is short, instead of showing the visitor an error.
  const wait = first.retryAfterMs;
  if (wait === undefined || options.signal?.aborted) return first.result;
  await new Promise((resolve) => setTimeout(resolve, wait));
  return options.signal?.aborted ? first.result : (await attempt(name, request, options)).result;
}

/** The longest Retry-After a busy answer is waited for (longer: the visitor sees the error and retries). */
const BUSY_RETRY_MAX_MS = 5_000;

function busyRetryAfterMs(response: Response): number | undefined {
  const header = response.headers.get('Retry-After');
  if (response.status !== 503 || header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds >= 0 && seconds * 1000 <= BUSY_RETRY_MAX_MS ? seconds * 1000 : undefined;
}

async function attempt(
  name: OperationName,
  request: ReturnType<typeof buildRequest>,
  options: CallOptions,
): Promise<{ result: CallResult; retryAfterMs?: number }> {
  // The response validator is a lazy chunk: fetch it alongside the call, not after it.
  loadResponseValidator(name).catch(() => undefined);
  const controller = new AbortController();
  const timeout = setTimeout(() => controller.abort(new DOMException('timeout', 'TimeoutError')), options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const onAbort = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  // Each attempt is a span of its own in the action's trace (only while the server exports traces).
  const trace = traceparent(options.action);
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: request.method,
      credentials: 'same-origin',
      headers: {
        Accept: 'application/json',
        ...(request.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        ...(trace ? { traceparent: trace } : {}),
      },
      body: request.body,
      signal: controller.signal,
    });
  } catch {
    options.signal?.removeEventListener('abort', onAbort);
    const timedOut = controller.signal.reason instanceof DOMException && controller.signal.reason.name === 'TimeoutError';
    return { result: { code: timedOut ? 'TIMEOUT' : 'NETWORK_ERROR', status: 0, ok: false, data: undefined } };
  } finally {
    clearTimeout(timeout);
  }
  let data: unknown;
  try {
    // A realtime channel (server-sent events, e.g. duoChannel) answers with its first event: the call
    // waits for it (its reader loads only then). A stream that ends first is a dropped connection.
    const stream = response.ok && response.headers.get('Content-Type')?.startsWith('text/event-stream');
    const text = stream ? await (await import('./event-stream')).firstEventData(response) : await response.text();
    data = text === '' ? {} : JSON.parse(text);
  } catch (error) {
    if (controller.signal.aborted || (error as Error).name === 'NetworkError')
      return { result: { code: 'NETWORK_ERROR', status: 0, ok: false, data: undefined } };
    return { result: { code: response.ok ? 'INVALID_RESPONSE' : `HTTP_${response.status}`, status: response.status, ok: false, data: undefined } };
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
  if (!response.ok) return { result: { code: `HTTP_${response.status}`, status: response.status, ok: false, data }, retryAfterMs: busyRetryAfterMs(response) };
  let valid: boolean;
  try {
    valid = await validateResponse(name, data);
  } catch {
    // The validator's chunk did not load: as much a network failure as the call itself.
    return { result: { code: 'NETWORK_ERROR', status: 0, ok: false, data: undefined } };
  }
  if (!valid) return { result: { code: 'INVALID_RESPONSE', status: response.status, ok: false, data: undefined } };
  return { result: { code: resultCodeOf(data, options.resultFrom), status: response.status, ok: true, data } };
}

function resultCodeOf(data: unknown, pointer = '/resultCode'): string {
  const value = readPointer(data, pointer);
  return typeof value === 'string' && value !== '' ? value : 'SUCCESS';
}
