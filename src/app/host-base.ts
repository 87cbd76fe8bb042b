import type { EngineHost } from '../engine';
import type { BotCheckConfig } from '../api/botcheck';
import { operationCaller } from '../api/operation-caller';
import { reportFailure } from '../api/report';
import { widgets } from '../../widgets/registry';
import { pickLanguage } from './i18n';
import { SUPPORTED_LANGUAGES } from './languages';
import { returnToIn, sameSitePath, serverRedirectUrl } from './redirects';
import type vocabulary from './vocabulary.json';

/**
 * What every host of the app's screens shares (the page's, the studio's preview, the Verify MFA
 * modal's when no page host is around): safe URLs and leaving, error reporting, the widgets, the
 * '$name' flags and '$env/name' values of src/app/vocabulary.json, the operation client. Each host
 * gives what differs (navigation, messages, links, …); this module imports no content component, so
 * the modal's host does not pull the landing page's panels (which include the modal).
 */
type Vocabulary = typeof vocabulary;
export type PageAction = keyof Vocabulary['actions'];
export type EnvFlag = keyof Vocabulary['flags'];
export type EnvSource = keyof Vocabulary['env'];

/** The site facts the flags come from (src/app/site.tsx). */
export interface FlagFacts {
  branded: boolean;
  production: boolean;
  selfRegistrationEnabled: boolean;
}

/** What '$name' conditions read. */
export function siteFlags(site: FlagFacts, expiredTrialCookie = false): Record<EnvFlag, boolean> {
  return { branded: site.branded, production: site.production, selfRegistrationEnabled: site.selfRegistrationEnabled, expiredTrialCookie };
}

/** Where a page is and whose browser shows it: the window's facts, or the build's stand-in when it prerenders pages (no window). */
export interface Place {
  origin: string;
  hostname: string;
  languages: readonly string[];
}

let prerenderPlace: Place = { origin: 'http://prerender.invalid', hostname: 'prerender.invalid', languages: [] };

/** The place the build's prerendering renders for (scripts/prerender.ts varies it to find what a page depends on). */
export function setPrerenderPlace(place: Place): void {
  prerenderPlace = place;
}

function place(): Place {
  if (typeof window === 'undefined') return prerenderPlace;
  return {
    origin: window.location.origin,
    hostname: window.location.hostname,
    languages: navigator.languages?.length ? navigator.languages : [navigator.language],
  };
}

/** What '$env/name' sources read, for a screen opened with this query string. */
export function appEnv(query: Readonly<Record<string, string>>): Record<EnvSource, unknown> {
  const { origin, hostname, languages } = place();
  return {
    origin,
    brandingHostname: hostname,
    returnTo: sameSitePath(returnToIn(query), origin),
    // The visitor's browser language among the product's languages (SPEC §3), e.g. a form default.
    browserLanguage: pickLanguage(languages, SUPPORTED_LANGUAGES),
  };
}

/** The parts a host must give; everything else has the app's default. */
export type HostParts = Pick<EngineHost, 'showMessage' | 'navigate' | 'Link' | 'flags'> & Partial<EngineHost> & { botCheck: BotCheckConfig };

export function hostBase({ botCheck, ...own }: HostParts): EngineHost {
  return {
    checkUrl: (raw) => serverRedirectUrl(raw, place().origin),
    leave: (url) => window.location.assign(url),
    authenticate: async () => undefined,
    report: reportFailure,
    useTitle: () => undefined,
    env: appEnv,
    widgets,
    content: () => undefined,
    actions: {},
    call: operationCaller(botCheck),
    ...own,
  };
}
