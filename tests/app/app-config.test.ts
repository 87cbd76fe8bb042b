// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appConfig, forgetAppConfig } from '../../src/api/app-config';
import { goAfterSignIn } from '../../src/app/after-sign-in';
import { loadSite } from '../../src/app/site';
import { loadHelpCenterHosts } from '../../src/platform/helpcenter/sso';
import { json, stubFetch } from '../platform/helpers';

/** /ws/app-config is asked once per page: the site, the redirect after a sign-in and the help centre share the answer. */
const CONFIG = {
  environment: 'development',
  selfRegistrationEnabled: true,
  botCheck: { provider: 'altcha' },
  helpCenter: { host: 'https://help.example.test' },
  academy: { hosts: ['https://academy.example.test'] },
};

afterEach(() => {
  forgetAppConfig();
  vi.unstubAllGlobals();
});

const configCalls = (urls: string[]) => urls.filter((url) => url.startsWith('/ws/app-config')).length;

describe('appConfig', () => {
  it('one sign-in asks for the app config once: the site, the redirect and the help centre read the same answer', async () => {
    const urls = stubFetch({ '/ws/app-config': () => json(CONFIG), '/ws/branding/generalData': () => json({ isEnabled: true }) });
    const site = await loadSite();
    expect(site.selfRegistrationEnabled).toBe(true);
    const assign = vi.fn();
    const win = { location: { origin: 'http://localhost', assign }, document } as unknown as Window;
    await goAfterSignIn('https://academy.example.test/course', undefined, win);
    expect(assign).toHaveBeenCalledWith(expect.stringContaining('/ws/integrations/academy/sso-link?route='));
    expect(await loadHelpCenterHosts()).toEqual({ host: 'https://help.example.test' });
    expect(configCalls(urls)).toBe(1);
  });

  it('control: a failed answer is asked again by the next reader', async () => {
    let fail = true;
    const urls = stubFetch({ '/ws/app-config': () => (fail ? json({ error: 'X', message: 'down' }, 503) : json(CONFIG)) });
    expect((await appConfig()).ok).toBe(false);
    fail = false;
    expect((await appConfig()).ok).toBe(true);
    expect((await appConfig()).ok).toBe(true);
    expect(configCalls(urls)).toBe(2);
  });
});
