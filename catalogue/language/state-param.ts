import type { StateField } from './types';

/**
 * The base64url JSON 'state' query parameter that carries MFA props between screens.
 * It arrives from the URL, so decoding is defensive: bad base64, bad JSON, wrong types and
 * unknown fields all end in undefined or are dropped, never in an exception.
 */
const MAX_STATE_LENGTH = 8192;

export function encodeState(value: Record<string, unknown>): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** base64url (padding optional) to its UTF-8 text; undefined for anything else, or beyond maxLength. */
export function decodeBase64url(raw: unknown, maxLength = MAX_STATE_LENGTH): string | undefined {
  if (typeof raw !== 'string' || raw === '' || raw.length > maxLength || !/^[A-Za-z0-9_-]+={0,2}$/.test(raw)) return undefined;
  try {
    const binary = atob(raw.replace(/-/g, '+').replace(/_/g, '/'));
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

export function decodeStateJson(raw: string | null | undefined): Record<string, unknown> | undefined {
  const text = decodeBase64url(raw);
  if (text === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function fieldOk(value: unknown, spec: StateField): boolean {
  switch (spec.type) {
    case 'string':
      return typeof value === 'string' && (spec.maxLength === undefined || value.length <= spec.maxLength) && (!spec.enum || spec.enum.includes(value));
    case 'boolean':
      return typeof value === 'boolean';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'stringArray':
      return Array.isArray(value) && value.length <= 32 && value.every((item) => typeof item === 'string' && (!spec.enum || spec.enum.includes(item)));
  }
}

/** Keeps only declared fields of the right type; undefined when a required one is missing. */
export function decodeState(raw: string | null | undefined, fields: Record<string, StateField>, required: string[] = []): Record<string, unknown> | undefined {
  const parsed = decodeStateJson(raw);
  if (!parsed) return undefined;
  const result: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(fields)) {
    if (Object.prototype.hasOwnProperty.call(parsed, name) && fieldOk(parsed[name], spec)) result[name] = parsed[name];
  }
  return required.every((name) => name in result) ? result : undefined;
}
