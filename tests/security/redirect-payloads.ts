/**
 * Attack payloads for return_to / redirect_uri, shared by the unit tests (tests/security/redirects.test.ts)
 * and the e2e sample (tests/e2e/redirects.spec.ts). The allowed hosts in those tests are
 * app.example.com (the site), help.example.com, help.gov.example.com and academy.example.com.
 */
export const REDIRECT_ATTACKS: readonly string[] = [
  // protocol-relative
  '//evil.com', '///evil.com', '////evil.com/app/', '//help.example.com', '//academy.example.com/x',
  // backslashes
  '/\\evil.com', '\\\\evil.com', '\\/evil.com', '/\\/evil.com', 'https:\\\\evil.com', 'https://help.example.com\\@evil.com',
  // encoded slashes and backslashes
  '%2F%2Fevil.com', '%2f%2fevil.com', '/%2Fevil.com', '/%5Cevil.com', '%5C%5Cevil.com', '%252F%252Fevil.com', '/%2e//evil.com',
  'https:%2F%2Fhelp.example.com', 'https://help.example.com%2F@evil.com', 'https://help.example.com%5C@evil.com',
  // userinfo @
  'https://help.example.com@evil.com', 'https://help.example.com:443@evil.com/', 'https://user:pass@help.example.com/x',
  'https://app.example.com@evil.com', '@evil.com', 'https://evil.com#@help.example.com',
  // other hosts, look-alike hosts, ports, schemes
  'https://evil.com', 'https://help.example.com.evil.com/', 'https://evilhelp.example.com/', 'https://academy.example.com.evil.com',
  'https://help.example.co/', 'http://help.example.com/x', 'https://help.example.com:8443/x', 'https://evil.com/https://help.example.com/',
  'https:help.example.com/x', 'https:/help.example.com/x', 'HTTPS://EVIL.COM', 'ftp://help.example.com/', 'evil.com', '.evil.com',
  // javascript: / data: and friends
  'javascript:alert(1)', 'JavaScript:alert(document.domain)', 'javascript%3Aalert(1)', 'java\nscript:alert(1)', ' javascript:alert(1)',
  'javascript://help.example.com/%0aalert(1)', 'data:text/html,<script>alert(1)</script>', 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'vbscript:msgbox(1)', 'file:///etc/passwd', 'blob:https://app.example.com/x',
  // CR / LF / control characters / whitespace
  '/app\r\nLocation: https://evil.com', '/app%0d%0aSet-Cookie:%20x=1', 'https://help.example.com/%0d%0aSet-Cookie:x', '\t//evil.com', '/\t/evil.com',
  '/%09/evil.com', ' //evil.com', '\n//evil.com', 'https://help.example.com/\u0000', ' https://help.example.com/x',
  // unicode look-alikes (fullwidth solidus, fraction slash, Cyrillic letters, dotless i, ideographic full stop)
  '／／evil.com', '＼＼evil.com', '⁄⁄evil.com', 'https://hеlp.example.com/x', 'https://help.exаmple.com/x', 'https://acadеmy.example.com/',
  'https://help.example。com/x', 'https://help．example.com/x', 'https://ｈelp.example.com/x',
  // /ws/ tricks: a kept /ws/ path must not escape the site
  '/ws/..//evil.com', '/ws/%2e%2e//evil.com', '%2F%2Fevil.com/ws/', '//ws/evil.com', '/ws\\..\\..\\evil.com', '/app/..//evil.com', '/.//evil.com',
  // malformed encodings and oversize
  '%', '/%E0%A4%A', '/' + 'a'.repeat(2100),
];
