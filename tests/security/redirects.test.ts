import { describe, expect, it } from 'vitest';
import { sameSitePath, serverRedirectUrl } from '../../catalogue/language/return-to';
import { classifyReturnTo, postLoginTarget } from '../../src/app/return-to';
import { academySsoPath } from '../../src/platform/helpcenter/sso';
import { safeReturnTo } from '../../server/services/signIn';
import { REDIRECT_ATTACKS } from './redirect-payloads';

/**
 * The redirect attack table (issue 8): every payload in return_to / redirect_uri must end on the
 * default landing page, whether or not help-centre and academy hosts are allowed.
 */
const origin = 'https://app.example.com';
const hosts = { helpCenter: ['https://help.example.com', 'https://help.gov.example.com/hc'], academy: ['https://academy.example.com'] };

describe('the attack table', () => {
  it('has at least 60 payloads, all distinct', () => {
    expect(REDIRECT_ATTACKS.length).toBeGreaterThanOrEqual(60);
    expect(new Set(REDIRECT_ATTACKS).size).toBe(REDIRECT_ATTACKS.length);
  });

  it.each(REDIRECT_ATTACKS.map((p) => [JSON.stringify(p), p]))('%s is neutralised', (_name, payload) => {
    expect(classifyReturnTo(payload, origin, hosts)).toBeUndefined();
    expect(sameSitePath(payload, origin)).toBeUndefined();
    expect(postLoginTarget({ returnTo: payload, origin })).toBe('/app/');
    expect(postLoginTarget({ returnTo: payload, userType: 'END_USER', origin })).toBe('/eus/');
  });

  // The server keeps a return_to through MFA and answers a plain form's sign-in with it: the same rule
  // (catalogue/language/return-to.ts). Its own copy let '/.//evil.com' through as '//evil.com'.
  it.each(REDIRECT_ATTACKS.map((p) => [JSON.stringify(p), p]))('%s is refused by the server too', (_name, payload) => {
    expect(safeReturnTo(payload)).toBeUndefined();
  });

  it("the server keeps a same-site path as it is, non-ASCII percent-encoded (the control: the owner's return_to still works)", () => {
    expect(safeReturnTo('/app/devices?x=1#y')).toBe('/app/devices?x=1#y');
    expect(safeReturnTo('/ws/oauth/authorize?client_id=1')).toBe('/ws/oauth/authorize?client_id=1');
    expect(safeReturnTo('/app/é')).toBe('/app/%C3%A9');
    expect(safeReturnTo(42)).toBeUndefined();
  });
});

describe('allowed targets', () => {
  it('same-site paths stay paths', () => {
    expect(classifyReturnTo('/app/devices?x=1#y', origin, hosts)).toEqual({ kind: 'site', path: '/app/devices?x=1#y' });
    expect(classifyReturnTo('https://app.example.com/eus/', origin, hosts)).toEqual({ kind: 'site', path: '/eus/' });
    expect(classifyReturnTo('/ws/oauth/authorize?client_id=1', origin, hosts)).toEqual({ kind: 'site', path: '/ws/oauth/authorize?client_id=1' });
  });

  it('help-centre and academy URLs on exactly the allowed hosts', () => {
    expect(classifyReturnTo('https://help.example.com/hc/articles/1?q=a#b', origin, hosts)).toEqual({
      kind: 'helpCenter',
      url: 'https://help.example.com/hc/articles/1?q=a#b',
    });
    expect(classifyReturnTo('https://HELP.example.com/x', origin, hosts)).toEqual({ kind: 'helpCenter', url: 'https://help.example.com/x' });
    expect(classifyReturnTo('https://help.gov.example.com/hc/1', origin, hosts)).toEqual({ kind: 'helpCenter', url: 'https://help.gov.example.com/hc/1' });
    expect(classifyReturnTo('https://academy.example.com/course/7', origin, hosts)).toEqual({ kind: 'academy', url: 'https://academy.example.com/course/7' });
  });

  it('nothing external is allowed when no hosts are configured', () => {
    expect(classifyReturnTo('https://help.example.com/x', origin)).toBeUndefined();
    expect(classifyReturnTo('https://academy.example.com/x', origin, { helpCenter: ['not a url'] })).toBeUndefined();
  });

  it('academy URLs go through the sso-link call, encoded', () => {
    expect(academySsoPath('https://academy.example.com/c?a=1&b=2')).toBe(
      '/ws/integrations/academy/sso-link?route=https%3A%2F%2Facademy.example.com%2Fc%3Fa%3D1%26b%3D2',
    );
  });
});

/** The moved-account URL and the IdP URL come from the server; they still pass serverRedirectUrl. */
describe('server-given URLs (moved account, IdP)', () => {
  it('keeps http(s) URLs and same-site paths', () => {
    expect(serverRedirectUrl('http://127.0.0.1:8080/login?moved=1', origin)).toBe('http://127.0.0.1:8080/login?moved=1');
    expect(serverRedirectUrl('/dev/idp?request=abc', origin)).toBe('/dev/idp?request=abc');
  });

  it.each([
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    ' javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'blob:https://app.example.com/uuid',
    'file:///etc/passwd',
    'about:blank',
    'mailto:a@b.c',
    'ftp://example.com/',
    'https://user:pass@evil.com/',
    'https://user@idp.example.com/',
    'https://:pass@idp.example.com/',
    'https://idp.example.com/\tx',
    'not a url',
    'https://app.example.com@evil.com/',
    'https://evil.com\\@app.example.com',
    '//evil.com',
    '\\\\evil.com',
    '/\\evil.com',
    '/%2F/evil.com',
    '/%5Cevil.com',
    'https://evil.com/\r\nSet-Cookie:x=1',
    'https://evil.com/\u0000',
    '',
  ])('neutralises %j', (payload) => {
    expect(serverRedirectUrl(payload, origin)).toBeUndefined();
  });
});
