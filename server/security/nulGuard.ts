/**
 * Text with a NUL character (U+0000) is refused at the door with 400 VALIDATION, in the body, the
 * query string and the path: no field of the API has a use for it, and PostgreSQL cannot store or
 * even compare it (it would surface as a 500 on one engine and not the other).
 */
import type { FastifyInstance } from 'fastify';
import { apiError } from '../errors.js';

/** Whether a parsed JSON value, query or params object holds a string with U+0000 (keys included). */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (value === null || typeof value !== 'object' || depth > 32) return false;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000') || containsNul(item, depth + 1)) return true;
  }
  return false;
}

export function registerNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (req, reply) => {
    if (containsNul(req.params) || containsNul(req.query) || containsNul(req.body)) {
      return apiError(reply, 400, 'VALIDATION', 'Text must not contain NUL characters');
    }
  });
}
