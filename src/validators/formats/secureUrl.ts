/** `secure-url`: a `url` (see url.ts) whose scheme is https, with a non-empty host. */
import { parseUri } from "./url.js";

export function secureUrl(s: string): boolean {
  const u = parseUri(s);
  return u !== null && u.scheme === "https" && !!u.host;
}
