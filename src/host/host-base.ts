import type { EngineHost } from '../engine';
import type { BotCheckConfig } from '../api/botcheck';
import { widgets } from '../../widgets/registry';
import { pickLanguage } from '../../catalogue/language/languages';
import { returnToIn, sameSitePath, serverRedirectUrl } from '../../catalogue/language/return-to';
import { language as SUPPORTED_LANGUAGES, languageDefault } from '../generated/lists';
import type { appActions as pageActions, appEnv as pageEnv, appFlags as pageFlags } from '../generated/vocabulary';
import { place } from './place';

/**
 * What every host of the app's screens shares (the page's, the studio's preview, the Verify MFA
 * modal's when no page host is around): safe URLs and leaving, error reporting, the widgets, the
 * '$name' flags and '$env/name' values of src/app/vocabulary.json, the operation client. Each host
 * gives what differs (navigation, messages, links, …); this module imports no content component, so
 * the modal's host does not pull the landing page's panels (which include the modal). It lives
 * outside src/app (src/host) because the Verify MFA modal builds on it without the app.
 */

/** The names the page's hosts declare (src/app/vocabulary.json, as generated into src/generated/vocabulary.ts). */
export type PageAction = (typeof pageActions)[number];
export type EnvFlag = (typeof pageFlags)[number];
export type EnvSource = (typeof pageEnv)[number];

/** The site facts the flags come from (src/app/site.tsx). */
export interface FlagFacts {
  branded: boolean;
  production: boolean;
  selfRegistrationEnabled: boolean;
}

/** The safe production choices, for a host that knows nothing of the site (the config calls failed, a page not ours). */
export const SAFE_FACTS: FlagFacts = { branded: false, production: true, selfRegistrationEnabled: false };

/** What '$name' conditions read. */
export function siteFlags(site: FlagFacts, expiredTrialCookie = false): Record<EnvFlag, boolean> {
  return { branded: site.branded, production: site.production, selfRegistrationEnabled: site.selfRegistrationEnabled, expiredTrialCookie };
}

/** What '$env/name' sources read, for a screen opened with this query string. */
export function appEnv(query: Readonly<Record<string, string>>): Record<EnvSource, unknown> {
  const { origin, hostname, languages } = place();
  return {
    origin,
    brandingHostname: hostname,
    returnTo: sameSitePath(returnToIn(query), origin),
    // The visitor's browser language among the product's languages (SPEC §3), e.g. a form default.
    browserLanguage: pickLanguage(languages, SUPPORTED_LANGUAGES, languageDefault),
  };
}

/**
 * The operation client, loaded at the first call (a probe or a submit: the page is usable before it,
 * and its table of operations is not part of the first load). One caller per host: it keeps the bot
 * check's provider.
 */
export function lazyOperationCaller(botCheck: BotCheckConfig): EngineHost['call'] {
  let caller: Promise<EngineHost['call']> | undefined;
  return async (operation, body, options) => {
    caller ??= import('../api/operation-caller').then((module) => module.operationCaller(botCheck));
    return (await caller)(operation, body, options);
  };
}

/** The parts a host must give; everything else has the app's default. */
export type HostParts = Pick<EngineHost, 'showMessage' | 'navigate' | 'Link' | 'flags'> & Partial<EngineHost> & { botCheck: BotCheckConfig };

export function hostBase({ botCheck, ...own }: HostParts): EngineHost {
  return {
    checkUrl: (raw) => serverRedirectUrl(raw, place().origin),
    leave: (url) => window.location.assign(url),
    authenticate: async () => undefined,
    // Error reporting loads with the first failure to report (not part of the first load).
    report: (failure) => void import('../api/report').then((module) => module.reportFailure(failure)),
    useTitle: () => undefined,
    env: appEnv,
    widgets,
    content: () => undefined,
    actions: {},
    call: lazyOperationCaller(botCheck),
    ...own,
  };
}
