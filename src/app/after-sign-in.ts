import { appConfig } from '../api/app-config';
import { reportFailure } from '../api/report';
import { academySsoPath, fetchHelpCenterToken, helpCenterFormAction, isHelpCenterUrl, parseHelpCenterHosts, postJwtForm } from '../platform/helpcenter/sso';
import { CONTROL_OR_BACKSLASH, returnToIn } from '../../catalogue/language/return-to';
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

/** The response field a sign-in's answer names the user's kind in (SPEC §2: end users land elsewhere). */
function userTypeOf(response: unknown): string | undefined {
  const value = response !== null && typeof response === 'object' ? (response as { userType?: unknown }).userType : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** The passkey step a sign-in's answer names (passkeyOffer, issue 37): none for most answers. */
function passkeyOfferIn(response: unknown): 'OFFER' | 'REVIEW' | undefined {
  const value = response !== null && typeof response === 'object' && 'passkeyOffer' in response ? response.passkeyOffer : undefined;
  return value === 'OFFER' || value === 'REVIEW' ? value : undefined;
}

/** /passkey with where the visitor goes afterwards (the screen authenticates with its own query). */
function passkeyScreen(query: Readonly<Record<string, string>>): string {
  const params = new URLSearchParams(Object.entries(query).filter(([name]) => name === 'return_to' || name === 'redirect_uri'));
  const search = params.toString();
  return search ? `/passkey?${search}` : '/passkey';
}

/**
 * A sign-in succeeded (the engine host's authenticate): first the passkey step its answer names, only
 * when it names one (./passkey-step.ts: a silent creation, or the /passkey screen), then on. An answer
 * that names none goes straight on: no screen, no call.
 */
export async function afterSignIn(
  signIn: { query: Readonly<Record<string, string>>; response: unknown },
  navigate: (to: string) => void,
  win: Window = window,
): Promise<void> {
  const offer = passkeyOfferIn(signIn.response);
  if (offer) {
    const { passkeyStep } = await import('./passkey-step');
    if ((await passkeyStep(offer)) === 'screen') return navigate(passkeyScreen(signIn.query));
  }
  return goAfterSignIn(returnToIn(signIn.query), userTypeOf(signIn.response), win);
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
