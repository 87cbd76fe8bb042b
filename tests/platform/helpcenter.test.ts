// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  academySsoLinkPath,
  fetchAcademySsoLink,
  fetchHelpCenterToken,
  HELP_CENTER_ERROR_KEY,
  HELP_CENTER_UNAVAILABLE_KEY,
  HELP_CENTER_WINDOW,
  helpCenterFormAction,
  helpCenterHost,
  isHelpCenterUrl,
  loadHelpCenterHosts,
  openHelpCenter,
  parseHelpCenterHosts,
  postJwtForm,
} from '../../src/platform';
import { json, stubFetch } from './helpers';
import { forgetAppConfig } from '../../src/api/app-config';

const HOSTS = { host: 'https://help.example.test', governmentHost: 'https://help.gov.example.test/base' };

let submitted: { action: string; target: string; method: string; fields: Record<string, string>; inDocument: boolean }[];
beforeEach(() => {
  submitted = [];
  vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(function (this: HTMLFormElement) {
    const fields = Object.fromEntries([...this.elements].map((el) => [(el as HTMLInputElement).name, (el as HTMLInputElement).value]));
    submitted.push({ action: this.action, target: this.target, method: this.method, fields, inDocument: document.body.contains(this) });
  });
});
afterEach(() => {
  forgetAppConfig();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('hosts and URLs', () => {
  it('parses app-config hosts, keeping http(s) URLs only', () => {
    expect(parseHelpCenterHosts({ helpCenter: { host: 'https://h.test/', governmentHost: 'https://g.test/x' } })).toEqual({
      host: 'https://h.test',
      governmentHost: 'https://g.test/x',
    });
    expect(parseHelpCenterHosts({ helpCenter: { host: 'javascript:alert(1)', governmentHost: 5 } })).toEqual({});
    expect(parseHelpCenterHosts(null)).toEqual({});
  });
  it('commercial and government-cloud hosts', () => {
    expect(helpCenterHost(HOSTS)).toBe('https://help.example.test');
    expect(helpCenterHost(HOSTS, true)).toBe('https://help.gov.example.test/base');
    expect(helpCenterHost({}, false)).toBeUndefined();
  });
  it('the form action is {host}/access/jwt?return_to=', () => {
    expect(helpCenterFormAction('https://help.example.test', 'https://help.example.test/hc/articles/1?x=1')).toBe(
      'https://help.example.test/access/jwt?return_to=https%3A%2F%2Fhelp.example.test%2Fhc%2Farticles%2F1%3Fx%3D1',
    );
    expect(helpCenterFormAction('http://127.0.0.1:8080/dev/helpcenter/')).toBe('http://127.0.0.1:8080/dev/helpcenter/access/jwt?return_to=');
    expect(helpCenterFormAction('ftp://x')).toBeUndefined();
    expect(helpCenterFormAction('not a url')).toBeUndefined();
  });
  it('recognises help-centre URLs of either host', () => {
    expect(isHelpCenterUrl('https://help.example.test/hc/1', HOSTS)).toBe(true);
    expect(isHelpCenterUrl('https://help.gov.example.test/base/a', HOSTS)).toBe(true);
    expect(isHelpCenterUrl('https://help.gov.example.test/other', HOSTS)).toBe(false);
    expect(isHelpCenterUrl('https://evil.test/hc', HOSTS)).toBe(false);
    expect(isHelpCenterUrl('/relative', HOSTS)).toBe(false);
  });
  it('academy links go through /ws/integrations/{academy}/sso-link?route=', () => {
    expect(academySsoLinkPath('academy', 'https://academy.test/c?a=1&b=2')).toBe(
      '/ws/integrations/academy/sso-link?route=https%3A%2F%2Facademy.test%2Fc%3Fa%3D1%26b%3D2',
    );
  });
});

describe('postJwtForm', () => {
  it('builds a hidden POST form with the jwt field (DOM API) and removes it after submit', () => {
    postJwtForm(document, 'https://help.example.test/access/jwt?return_to=', 'a.b<c>', 'win');
    expect(submitted).toEqual([
      { action: 'https://help.example.test/access/jwt?return_to=', target: 'win', method: 'post', fields: { jwt: 'a.b<c>' }, inDocument: true },
    ]);
    expect(document.querySelectorAll('form')).toHaveLength(0);
  });
});

describe('openHelpCenter', () => {
  it('opens the named window synchronously, then posts the token into it', async () => {
    const tab = { close: vi.fn(), opener: window as unknown };
    const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    let resolveToken!: (v: { ok: true; jwt: string }) => void;
    const getToken = vi.fn(
      () =>
        new Promise<{ ok: true; jwt: string }>((resolve) => {
          resolveToken = resolve;
        }),
    );
    const pending = openHelpCenter({ hosts: HOSTS, returnTo: '/hc', getToken });
    expect(open).toHaveBeenCalledWith('about:blank', HELP_CENTER_WINDOW); // before the token exists
    expect(tab.opener).toBeNull();
    expect(submitted).toHaveLength(0);
    resolveToken({ ok: true, jwt: 'tok' });
    expect(await pending).toEqual({ ok: true });
    expect(submitted).toEqual([
      expect.objectContaining({ action: 'https://help.example.test/access/jwt?return_to=%2Fhc', target: HELP_CENTER_WINDOW, fields: { jwt: 'tok' } }),
    ]);
    expect(tab.close).not.toHaveBeenCalled();
  });
  it('uses the government host when asked', async () => {
    vi.spyOn(window, 'open').mockReturnValue({ close: vi.fn() } as unknown as Window);
    await openHelpCenter({ hosts: HOSTS, government: true, getToken: async () => ({ ok: true, jwt: 't' }) });
    expect(submitted[0]?.action).toBe('https://help.gov.example.test/base/access/jwt?return_to=');
  });
  it('posts to _blank when the popup was blocked', async () => {
    vi.spyOn(window, 'open').mockReturnValue(null);
    await openHelpCenter({ hosts: HOSTS, getToken: async () => ({ ok: true, jwt: 't' }) });
    expect(submitted[0]?.target).toBe('_blank');
  });
  it('a token failure closes the window, is reported and gives the error key', async () => {
    const tab = { close: vi.fn() };
    vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const report = vi.fn();
    const result = await openHelpCenter({ hosts: HOSTS, getToken: async () => ({ ok: false, code: 'HTTP_500', status: 500 }), report });
    expect(result).toEqual({ ok: false, code: 'HTTP_500', errorKey: HELP_CENTER_ERROR_KEY });
    expect(tab.close).toHaveBeenCalled();
    expect(report).toHaveBeenCalledWith({ operation: 'helpCenterSsoToken', code: 'HTTP_500', status: 500 });
    expect(submitted).toHaveLength(0);
  });
  it('without a host nothing opens', async () => {
    const open = vi.spyOn(window, 'open');
    expect(await openHelpCenter({ hosts: {} })).toEqual({ ok: false, code: 'NOT_CONFIGURED', errorKey: HELP_CENTER_UNAVAILABLE_KEY });
    expect(open).not.toHaveBeenCalled();
  });
});

describe('server calls', () => {
  it('fetchHelpCenterToken, loadHelpCenterHosts, fetchAcademySsoLink', async () => {
    const urls = stubFetch({
      '/ws/helpcenter/sso-token': () => json({ jwt: 'x.y.z' }),
      '/ws/app-config': () =>
        json({
          environment: 'development',
          selfRegistrationEnabled: true,
          botCheck: { provider: 'altcha' },
          helpCenter: { host: 'http://localhost/dev/helpcenter', governmentHost: 'http://localhost/dev/helpcenter' },
        }),
      '/ws/integrations/academy/sso-link': () => json({ url: 'https://academy.test/c?jwt=1' }),
    });
    expect(await fetchHelpCenterToken()).toEqual({ ok: true, jwt: 'x.y.z' });
    expect(await loadHelpCenterHosts()).toEqual({ host: 'http://localhost/dev/helpcenter', governmentHost: 'http://localhost/dev/helpcenter' });
    expect(await fetchAcademySsoLink('academy', 'https://academy.test/c')).toBe('https://academy.test/c?jwt=1');
    expect(urls[2]).toBe('/ws/integrations/academy/sso-link?route=https%3A%2F%2Facademy.test%2Fc');
  });
  it('failures', async () => {
    stubFetch({
      '/ws/helpcenter/sso-token': () => json({ error: 'UNAUTHENTICATED', message: 'x' }, 401),
      '/ws/integrations/a/sso-link': () => json({ url: 'javascript:alert(1)' }),
    });
    expect(await fetchHelpCenterToken()).toEqual({ ok: false, code: 'HTTP_401', status: 401 });
    expect(await loadHelpCenterHosts()).toEqual({});
    expect(await fetchAcademySsoLink('a', 'https://x.test')).toBeNull();
  });
});
