import { CONTROL_OR_BACKSLASH, sameSitePath } from '../../catalogue/language/return-to';

/**
 * Where a signed-in visitor may go (SPEC §2): the landing pages and the return_to targets on other
 * hosts (help centre, academy). Only after-sign-in.ts and the platform's help-centre module need it,
 * so it is not part of the first load.
 */
export type UserType = 'TECHNICIAN' | 'END_USER' | string;

export const DEFAULT_LANDING = '/app/';
export const END_USER_LANDING = '/eus/';

/**
 * SPEC §2 "After successful authentication": the return_to / redirect_uri target when it is
 * same-site (a /ws/ path is kept as is; other relative paths are prefixed with the site),
 * else /eus/ for END_USER, else the technician landing page.
 */
export function postLoginTarget(options: { returnTo?: string; userType?: UserType; origin: string }): string {
  const path = sameSitePath(options.returnTo, options.origin);
  if (path) return path.startsWith('/ws/') ? path : options.origin + path;
  return options.userType === 'END_USER' ? END_USER_LANDING : DEFAULT_LANDING;
}

/** Hosts a return_to may name besides this site (from /ws/app-config): help centre and academy. */
export interface AllowedHosts {
  /** Help-centre origins or base URLs (commercial and government cloud). */
  helpCenter?: readonly string[];
  /** Academy (training) origins or base URLs. */
  academy?: readonly string[];
}

export type ReturnTarget = { kind: 'site'; path: string } | { kind: 'helpCenter'; url: string } | { kind: 'academy'; url: string };

/** host (hostname[:port]) of an allowed entry, lower case; entries that are not http(s) URLs count for nothing. */
function allowedHost(entry: string): string | undefined {
  try {
    const url = new URL(entry);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.host.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * An absolute https URL whose host is exactly one of the allowed ones (no userinfo, no control
 * characters, no backslashes, no look-alikes: the comparison is on the parsed, punycoded host).
 */
function externalOn(raw: string, hosts: readonly string[] | undefined): string | undefined {
  if (!hosts || hosts.length === 0) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' || url.username || url.password) return undefined;
  // The raw text must already be the canonical scheme + authority: 'https:help.example.com' or
  // 'https://help.example.com\\@evil' parse leniently, and we take no lenient parses.
  if (!raw.toLowerCase().startsWith(`https://${url.host.toLowerCase()}`)) return undefined;
  const host = url.host.toLowerCase();
  return hosts.some((entry) => allowedHost(entry) === host) ? url.href : undefined;
}

/**
 * SPEC §2 return_to / redirect_uri: a same-site path, or a help-centre or academy URL on an allowed
 * host. Anything else (other hosts, other schemes, encoded tricks) is undefined: the caller falls back
 * to the default landing page.
 */
export function classifyReturnTo(raw: string | null | undefined, origin: string, hosts: AllowedHosts = {}): ReturnTarget | undefined {
  const path = sameSitePath(raw, origin);
  if (path !== undefined) return { kind: 'site', path };
  if (!raw) return undefined;
  const value = raw.trim();
  if (value !== raw || value.length > 2048 || CONTROL_OR_BACKSLASH.test(value) || /%(?:2f|5c|0[0-9a-f]|1[0-9a-f]|7f)/i.test(value.split(/[?#]/)[0] ?? ''))
    return undefined;
  const help = externalOn(value, hosts.helpCenter);
  if (help) return { kind: 'helpCenter', url: help };
  const academy = externalOn(value, hosts.academy);
  if (academy) return { kind: 'academy', url: academy };
  return undefined;
}
