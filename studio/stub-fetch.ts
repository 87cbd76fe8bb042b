import { operations } from '../src/generated/operations';

/**
 * The preview's server calls never reach the server: the studio answers them with the result code
 * chosen in the simulator. Only the studio's own API (/dev/studio/api) goes through. The stub
 * answers an unknown code by default, which every outcome table sends to '*' (or the engine's
 * generic error), so nothing signs in or leaves the page unless a simulation asks for it.
 */
export const UNSET_CODE = 'STUDIO_UNSET';

export interface Stub {
  code: string;
  /** Where the code goes in the response (the call's resultFrom, default /resultCode). */
  resultFrom?: string;
}

const stubs = new Map<string, Stub>();
const realFetch = window.fetch.bind(window);

const matchers = Object.entries(operations).map(([name, op]) => ({
  name,
  method: op.method,
  pattern: new RegExp(`^${op.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));

export function setStub(operation: string, stub: Stub | undefined): void {
  if (stub) stubs.set(operation, stub);
  else stubs.delete(operation);
}

function operationOf(method: string, url: URL): string | undefined {
  return matchers.find((m) => m.method === method && m.pattern.test(url.pathname))?.name;
}

/** A response body with the code at its pointer ('/authState' -> { authState: code }). */
export function bodyFor(stub: Stub): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  let node = body;
  const parts = (stub.resultFrom ?? '/resultCode').replace(/^\//, '').split('/');
  parts.forEach((part, i) => {
    if (i === parts.length - 1) node[part] = stub.code;
    else node = (node[part] = {}) as Record<string, unknown>;
  });
  if (stub.resultFrom && stub.resultFrom !== '/resultCode') body.resultCode = stub.code;
  return body;
}

export function installFetchStub(): void {
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const url = new URL(request.url, window.location.origin);
    if (url.origin === window.location.origin && url.pathname.startsWith('/dev/studio/')) return realFetch(input, init);
    const operation = operationOf(request.method, url);
    const stub = (operation && stubs.get(operation)) || { code: UNSET_CODE };
    return new Response(JSON.stringify(bodyFor(stub)), { status: 200, headers: { 'Content-Type': 'application/json' } });
  };
}
