/**
 * Duo Universal Prompt settings from the environment (DUO_CLIENT_ID, DUO_CLIENT_SECRET, DUO_API_HOST),
 * checked at start like config.ts: each mistake one line. Kept apart from universal.ts so that the
 * start-up check does not load Duo's SDK.
 */

export interface DuoSettings {
  clientId: string;
  clientSecret: string;
  apiHost: string;
}

/** DUO_* from the environment; each mistake one line (config.ts style). */
export function checkDuo(env: NodeJS.ProcessEnv, problems: string[]): DuoSettings | undefined {
  const names = ['DUO_CLIENT_ID', 'DUO_CLIENT_SECRET', 'DUO_API_HOST'];
  const present = names.filter((n) => env[n]);
  if (present.length === 0) return undefined;
  if (present.length < names.length) {
    problems.push(
      `Duo needs DUO_CLIENT_ID, DUO_CLIENT_SECRET and DUO_API_HOST together (missing: ${names.filter((n) => !env[n]).join(', ')}); find them in the Duo Admin Panel, Applications, your Web SDK application.`,
    );
    return undefined;
  }
  const settings = { clientId: env.DUO_CLIENT_ID as string, clientSecret: env.DUO_CLIENT_SECRET as string, apiHost: env.DUO_API_HOST as string };
  if (settings.clientId.length !== 20) problems.push('DUO_CLIENT_ID must be the 20-character Client ID of your Duo Web SDK application.');
  if (settings.clientSecret.length !== 40) problems.push('DUO_CLIENT_SECRET must be the 40-character Client secret of your Duo Web SDK application.');
  if (!/^[a-z0-9.-]+(:\d+)?$/i.test(settings.apiHost) || settings.apiHost.includes('://'))
    problems.push(`DUO_API_HOST must be a host name such as api-1a2b3c4d.duosecurity.com (no https://), not ${JSON.stringify(settings.apiHost)}.`);
  return settings;
}
