/**
 * Help-centre single sign-on (SPEC §2, §7): GET /ws/helpcenter/sso-token gives a jwt; the browser
 * form-POSTs it (field jwt) to {host}/access/jwt?return_to=... in a new tab. Hosts come from
 * /ws/app-config helpCenter: host (commercial cloud) and governmentHost (government cloud).
 *
 * Popup blockers allow a new window only synchronously inside the click: openHelpCenter() opens an
 * empty named window first, then fetches the token and posts the form into that window.
 */
import { callOperation } from '../../api/client';
import { reportFailure } from '../../api/report';
import { appConfig } from '../../api/app-config';

export interface HelpCenterHosts {
  /** Commercial-cloud help-centre base URL (origin + optional path), no trailing slash needed. */
  host?: string;
  /** Government-cloud help-centre base URL. */
  governmentHost?: string;
}

export const HELP_CENTER_WINDOW = 'fd-helpcenter';
export const HELP_CENTER_ERROR_KEY = 'platform.helpCenter.error';
export const HELP_CENTER_UNAVAILABLE_KEY = 'platform.helpCenter.unavailable';

export type HelpCenterResult = { ok: true } | { ok: false; code: string; errorKey: string };

function httpUrl(raw: unknown): URL | undefined {
  if (typeof raw !== 'string' || raw === '') return undefined;
  try {
    const url = new URL(raw);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** Hosts from an untrusted app-config answer (only http(s) URLs survive). */
export function parseHelpCenterHosts(appConfig: unknown): HelpCenterHosts {
  const hc = (appConfig as { helpCenter?: { host?: unknown; governmentHost?: unknown } } | null)?.helpCenter;
  const host = httpUrl(hc?.host)?.toString().replace(/\/$/, '');
  const governmentHost = httpUrl(hc?.governmentHost)?.toString().replace(/\/$/, '');
  return { ...(host ? { host } : {}), ...(governmentHost ? { governmentHost } : {}) };
}

/** The host for the user's cloud (government cloud: governmentHost). */
export function helpCenterHost(hosts: HelpCenterHosts, government = false): string | undefined {
  return government ? hosts.governmentHost : hosts.host;
}

/** {host}/access/jwt?return_to={returnTo} ; undefined for a host that is not an http(s) URL. */
export function helpCenterFormAction(host: string, returnTo = ''): string | undefined {
  const base = httpUrl(host);
  if (!base) return undefined;
  const url = new URL(`${base.toString().replace(/\/$/, '')}/access/jwt`);
  url.searchParams.set('return_to', returnTo);
  return url.toString();
}

/** Whether a URL points into the help centre (either host): such targets go through single sign-on. */
export function isHelpCenterUrl(raw: string, hosts: HelpCenterHosts): boolean {
  const url = httpUrl(raw);
  if (!url) return false;
  return [hosts.host, hosts.governmentHost].some((host) => {
    const base = httpUrl(host);
    return base !== undefined && url.origin === base.origin && url.pathname.startsWith(base.pathname.replace(/\/$/, ''));
  });
}

/** Builds <form method=POST target=... action=...><input type=hidden name=jwt></form> with the DOM API and submits it. */
export function postJwtForm(doc: Document, action: string, jwt: string, target: string): void {
  const form = doc.createElement('form');
  form.method = 'POST';
  form.action = action;
  form.target = target;
  form.style.display = 'none';
  const input = doc.createElement('input');
  input.type = 'hidden';
  input.name = 'jwt';
  input.value = jwt;
  form.appendChild(input);
  doc.body.appendChild(form);
  try {
    form.submit();
  } finally {
    form.remove();
  }
}

export async function fetchHelpCenterToken(): Promise<{ ok: true; jwt: string } | { ok: false; code: string; status: number }> {
  const result = await callOperation('helpCenterSsoToken');
  const jwt = result.data?.jwt;
  if (result.ok && typeof jwt === 'string' && jwt !== '') return { ok: true, jwt };
  return { ok: false, code: result.ok ? 'INVALID_RESPONSE' : result.code, status: result.status };
}

export async function loadHelpCenterHosts(): Promise<HelpCenterHosts> {
  const result = await appConfig();
  return result.ok ? parseHelpCenterHosts(result.data) : {};
}

export interface OpenHelpCenterOptions {
  hosts: HelpCenterHosts;
  government?: boolean;
  /** Help-centre page to land on (return_to). */
  returnTo?: string;
  win?: Window;
  windowName?: string;
  getToken?: typeof fetchHelpCenterToken;
  report?: typeof reportFailure;
}

/**
 * Call it straight from the click handler (not after an await): the named window opens synchronously,
 * then the token is fetched and posted into it. A failure closes that window, is reported and returned
 * with the text key to show.
 */
export function openHelpCenter(options: OpenHelpCenterOptions): Promise<HelpCenterResult> {
  const win = options.win ?? window;
  const name = options.windowName ?? HELP_CENTER_WINDOW;
  const host = helpCenterHost(options.hosts, options.government);
  const action = host ? helpCenterFormAction(host, options.returnTo ?? '') : undefined;
  if (!action) return Promise.resolve({ ok: false, code: 'NOT_CONFIGURED', errorKey: HELP_CENTER_UNAVAILABLE_KEY });
  const tab = win.open('about:blank', name);
  if (tab) {
    try {
      tab.opener = null;
    } catch {
      /* cross-origin: ignore */
    }
  }
  const getToken = options.getToken ?? fetchHelpCenterToken;
  const report = options.report ?? reportFailure;
  return getToken().then((token) => {
    if (!token.ok) {
      tab?.close();
      report({ operation: 'helpCenterSsoToken', code: token.code, status: token.status });
      return { ok: false, code: token.code, errorKey: HELP_CENTER_ERROR_KEY } as const;
    }
    postJwtForm(win.document, action, token.jwt, tab ? name : '_blank');
    return { ok: true } as const;
  });
}

/** SPEC §2: academy (training) URLs go through /ws/integrations/{academy}/sso-link?route={url}. */
export function academySsoPath(url: string, academy = 'academy'): string {
  return `/ws/integrations/${encodeURIComponent(academy)}/sso-link?route=${encodeURIComponent(url)}`;
}

/** The same, academy first (the platform's signature). */
export function academySsoLinkPath(academy: string, route: string): string {
  return academySsoPath(route, academy);
}

/** The academy's single-sign-on redirect target for a URL; null on failure. */
export async function fetchAcademySsoLink(academy: string, route: string): Promise<string | null> {
  const result = await callOperation('academySsoLink', { academy, route });
  const url = result.data?.url;
  return result.ok && typeof url === 'string' && httpUrl(url) ? url : null;
}
