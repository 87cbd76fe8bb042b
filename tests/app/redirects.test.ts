import { describe, expect, it } from 'vitest';
import { sameSitePath, serverRedirectUrl } from '../../catalogue/language/return-to';
import { DEFAULT_LANDING, END_USER_LANDING, postLoginTarget } from '../../src/app/return-to';

const origin = 'https://localhost';

describe('postLoginTarget', () => {
  it('a relative same-site return_to becomes origin + path (query and hash kept)', () => {
    expect(postLoginTarget({ returnTo: '/app/reports?tab=2#top', origin })).toBe('https://localhost/app/reports?tab=2#top');
    expect(postLoginTarget({ returnTo: '/eus/tickets', userType: 'TECHNICIAN', origin })).toBe('https://localhost/eus/tickets');
  });

  it('an absolute URL on this origin is reduced to its path', () => {
    expect(postLoginTarget({ returnTo: 'https://localhost/app/x?y=1', origin })).toBe('https://localhost/app/x?y=1');
    expect(postLoginTarget({ returnTo: 'HTTPS://LOCALHOST/app/x', origin })).toBe('https://localhost/app/x');
  });

  it('a /ws/ path is kept as a path', () => {
    expect(postLoginTarget({ returnTo: '/ws/helpcenter/sso?x=1', origin })).toBe('/ws/helpcenter/sso?x=1');
  });

  it('defaults: END_USER to /eus/, everyone else to /app/', () => {
    expect(END_USER_LANDING).toBe('/eus/');
    expect(DEFAULT_LANDING).toBe('/app/');
    expect(postLoginTarget({ userType: 'END_USER', origin })).toBe('/eus/');
    expect(postLoginTarget({ userType: 'TECHNICIAN', origin })).toBe('/app/');
    expect(postLoginTarget({ origin })).toBe('/app/');
    expect(postLoginTarget({ returnTo: '', origin })).toBe('/app/');
    expect(postLoginTarget({ returnTo: '//evil.com', userType: 'END_USER', origin })).toBe('/eus/');
  });

  it('redirect_uri values follow the same rules (the runtime passes either)', () => {
    for (const [value, expected] of [
      ['/app/devices', 'https://localhost/app/devices'],
      ['/ws/oauth/authorize?client_id=x', '/ws/oauth/authorize?client_id=x'],
      ['https://evil.com/cb', '/app/'],
    ] as const) {
      expect(postLoginTarget({ returnTo: sameSitePath(value, origin), origin })).toBe(expected);
      expect(postLoginTarget({ returnTo: value, origin })).toBe(expected);
    }
  });

  it('a long but legal path is kept; over 2048 characters is not', () => {
    const ok = '/app/' + 'a'.repeat(2000);
    expect(postLoginTarget({ returnTo: ok, origin })).toBe(origin + ok);
    expect(postLoginTarget({ returnTo: '/app/' + 'a'.repeat(2050), origin })).toBe('/app/');
  });
});

/** Attacker-controlled return_to values: every one must end on the default landing page. */
const HOSTILE: string[] = [
  '//evil.com',
  '///evil.com',
  '////evil.com/path',
  '//evil.com/app/',
  '/\\evil.com',
  '\\\\evil.com',
  '\\/evil.com',
  '/\\/evil.com',
  '%2F%2Fevil.com',
  '%2f%2fevil.com',
  '/%2Fevil.com',
  '/%2fevil.com',
  '%2F%5Cevil.com',
  '/%5Cevil.com',
  '%5C%5Cevil.com',
  '%252F%252Fevil.com',
  'https://evil.com',
  'http://evil.com/app/',
  'HTTPS://EVIL.COM',
  'https:evil.com',
  'https:/evil.com',
  'https://localhost@evil.com',
  'https://localhost:443@evil.com/',
  'https://user:pass@localhost/app',
  'https://localhost.evil.com/app',
  'https://localhostevil.com',
  'https://evil.com/https://localhost/',
  'http://localhost/app',
  'https://localhost:8443/app',
  'javascript:alert(1)',
  'JavaScript:alert(document.domain)',
  'javascript%3Aalert(1)',
  'java\nscript:alert(1)',
  ' javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'vbscript:msgbox(1)',
  'file:///etc/passwd',
  'ftp://evil.com/',
  '/app\r\nLocation: https://evil.com',
  '/app%0d%0aSet-Cookie:%20x=1',
  '/app%0aevil',
  '/app%00',
  '\t//evil.com',
  '/\t/evil.com',
  '/%09/evil.com',
  ' //evil.com',
  '  //evil.com  ',
  '\n//evil.com',
  '／／evil.com',
  '＼＼evil.com',
  '⁄⁄evil.com',
  'evil.com',
  'www.evil.com/app',
  '.evil.com',
  '@evil.com',
  '%',
  '/%E0%A4%A',
  '/.//evil.com',
  '/ws/..//evil.com',
  '/%2e//evil.com',
  '/app/..//evil.com',
];

describe('hostile return_to values', () => {
  it('the table is large enough', () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(40);
  });

  it.each(HOSTILE.map((value) => [JSON.stringify(value), value]))('%s goes to the default landing', (_name, value) => {
    expect(postLoginTarget({ returnTo: value, origin })).toBe('/app/');
    expect(postLoginTarget({ returnTo: value, userType: 'END_USER', origin })).toBe('/eus/');
    expect(sameSitePath(value, origin)).toBeUndefined();
  });
});

describe('sameSitePath', () => {
  it('never returns something a browser would read as another host', () => {
    for (const value of HOSTILE) {
      const path = sameSitePath(value, origin);
      if (path !== undefined) expect(path.startsWith('//') || path.startsWith('/\\')).toBe(false);
    }
  });
  it('keeps ordinary paths with query and hash', () => {
    expect(sameSitePath('/app/x?a=//b#//c', origin)).toBe('/app/x?a=//b#//c');
    expect(sameSitePath('/app/%2F%2Fevil.com', origin)).toBe('/app/%2F%2Fevil.com');
  });
});

describe('serverRedirectUrl', () => {
  it('accepts same-site paths as given', () => {
    expect(serverRedirectUrl('/login?message=signedOut', origin)).toBe('/login?message=signedOut');
    expect(serverRedirectUrl('/ws/saml/start', origin)).toBe('/ws/saml/start');
  });

  it('accepts absolute http(s) URLs without credentials, normalised', () => {
    expect(serverRedirectUrl('https://idp.example.com/sso?SAMLRequest=abc', origin)).toBe('https://idp.example.com/sso?SAMLRequest=abc');
    expect(serverRedirectUrl('http://other.example.com/', origin)).toBe('http://other.example.com/');
    expect(serverRedirectUrl('HTTPS://IDP.EXAMPLE.COM/x', origin)).toBe('https://idp.example.com/x');
  });

  // What it refuses: tests/security/redirects.test.ts ('server-given URLs').

  it('rejects non-strings and oversize values', () => {
    expect(serverRedirectUrl(undefined, origin)).toBeUndefined();
    expect(serverRedirectUrl(42, origin)).toBeUndefined();
    expect(serverRedirectUrl({ url: '/app' }, origin)).toBeUndefined();
    expect(serverRedirectUrl('https://idp.example.com/' + 'a'.repeat(4100), origin)).toBeUndefined();
  });
});
