/** `secure-url`: a `url` (see url.ts) whose scheme is https. */
import { isWebUrl, MAX_URL_LENGTH } from './url.js';
import { parseUri } from './uri.js';

const HTTPS = ['https'];

export function secureUrl(s: string): boolean {
  return s.length <= MAX_URL_LENGTH && isWebUrl(parseUri(s), HTTPS);
}
