/** `secure-url`: a `url` (see url.ts) whose scheme is https. */
import { isWebUrl } from "./url.js";
import { parseUri } from "./uri.js";

const HTTPS = ["https"];

export function secureUrl(s: string): boolean {
  return isWebUrl(parseUri(s), HTTPS);
}
