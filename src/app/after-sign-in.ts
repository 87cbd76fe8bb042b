import { appConfig } from '../api/app-config';
import { reportFailure } from '../api/report';
import { academySsoPath, fetchHelpCenterToken, helpCenterFormAction, isHelpCenterUrl, parseHelpCenterHosts, postJwtForm } from '../platform/helpcenter/sso';
import { CONTROL_OR_BACKSLASH } from '../../catalogue/language/return-to';
import { classifyReturnTo, postLoginTarget } from './return-to';

/**
 * SPEC §2 "After successful authentication": where a signed-in visitor goes. Help-centre targets
 * go through single sign-on (the signed token is form-posted to the help centre in this tab),
 * academy targets through /ws/integrations/{academy}/sso-link, same-site targets as they are; all
 * else, and any failure on the way, ends on the default landing page (/eus/ for end users).
 * Loaded lazily: only a successful sign-in needs it.
 */
function academyHosts(config: unknown): string[] {
  const hosts = (config as { academy?: { hosts?: unknown } } | null)?.academy?.hosts;
  return Array.isArray(hosts) ? hosts.filter((h): h is string => typeof h === 'string') : [];
}

export async function goAfterSignIn(rawReturnTo: string | undefined, userType: string | undefined, win: Window = window): Promise<void> {
  const origin = win.location.origin;
  const fallback = () => win.location.assign(postLoginTarget({ returnTo: rawReturnTo, userType, origin }));
  if (!rawReturnTo || rawReturnTo.length > 2048 || CONTROL_OR_BACKSLASH.test(rawReturnTo)) return fallback();
  const config = await appConfig();
  const hosts = config.ok ? parseHelpCenterHosts(config.data) : {};
  if (isHelpCenterUrl(rawReturnTo, hosts)) {
    const base = [hosts.host, hosts.governmentHost].find((host) => host !== undefined && isHelpCenterUrl(rawReturnTo, { host }));
    const action = base ? helpCenterFormAction(base, rawReturnTo) : undefined;
    const token = await fetchHelpCenterToken();
    if (token.ok && action) return postJwtForm(win.document, action, token.jwt, '_self');
    if (!token.ok) reportFailure({ operation: 'helpCenterSsoToken', code: token.code, status: token.status });
    return fallback();
  }
  const target = classifyReturnTo(rawReturnTo, origin, { academy: config.ok ? academyHosts(config.data) : [] });
  if (target?.kind === 'academy') return win.location.assign(academySsoPath(target.url));
  return fallback();
}
