import { describe, expect, it } from 'vitest';
import { ConfigError, devToolsWanted, isLoopback, parseOrigins, parsePublicUrl, parseTrustProxy } from '../../server/config';
import { decrypt, encrypt, loadSecrets } from '../../server/security/secrets';
import { openSqlite } from '../../server/db/sqlite';

describe('server/config.ts', () => {
  it('dev tools: only when asked for (--demo outside production, or DEV_TOOLS=1); DEV_TOOLS=0 wins over the flag', () => {
    expect(devToolsWanted({}, [])).toBe(false);
    expect(devToolsWanted({}, ['--demo'])).toBe(true);
    expect(devToolsWanted({ NODE_ENV: 'production' }, ['--demo'])).toBe(false);
    expect(devToolsWanted({ NODE_ENV: 'production', DEV_TOOLS: '1' }, [])).toBe(true);
    expect(devToolsWanted({ DEV_TOOLS: '0' }, ['--demo'])).toBe(false);
    expect(() => devToolsWanted({ DEV_TOOLS: 'yes' }, [])).toThrow(ConfigError);
  });

  it('loopback addresses', () => {
    for (const h of ['127.0.0.1', '127.9.9.9', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1']) expect(isLoopback(h), h).toBe(true);
    for (const h of ['0.0.0.0', '::', '10.0.0.1', '192.168.1.2', 'example.com']) expect(isLoopback(h), h).toBe(false);
  });

  it('TRUST_PROXY takes addresses and CIDRs only', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy('10.0.0.0/8,127.0.0.1, ::1, fd00::/8')).toEqual(['10.0.0.0/8', '127.0.0.1', '::1', 'fd00::/8']);
    for (const bad of ['1', 'true', '*', '10.0.0.0/33', 'proxy.local', '10.0.0.0/8,all']) expect(() => parseTrustProxy(bad), bad).toThrow(ConfigError);
    expect(() => parseTrustProxy('1')).toThrow(/trusting every hop/);
  });

  it('PUBLIC_URL: an http(s) base without credentials, query or fragment; academy hosts are origins', () => {
    expect(parsePublicUrl('https://signin.example.com/')).toBe('https://signin.example.com');
    expect(parsePublicUrl('http://localhost:8080')).toBe('http://localhost:8080');
    for (const bad of ['signin.example.com', 'javascript:alert(1)', 'https://u:p@x.test', 'https://x.test/?a=1', 'https://x.test/#f']) {
      expect(() => parsePublicUrl(bad), bad).toThrow(ConfigError);
    }
    expect(parseOrigins('https://a.test/path, https://b.test', 'ACADEMY_HOSTS')).toEqual(['https://a.test', 'https://b.test']);
  });
});

describe('server/security/secrets.ts', () => {
  it('outside demo mode APP_SECRET is required and long enough; demo mode keeps one in the database', async () => {
    const db = openSqlite(':memory:');
    await db.migrate();
    try {
      await expect(loadSecrets(db, { appSecret: undefined, helpCenterJwtSecret: undefined, helpCenterConfigured: false, demo: false })).rejects.toThrow(
        /APP_SECRET is required/,
      );
      await expect(loadSecrets(db, { appSecret: 'short', helpCenterJwtSecret: undefined, helpCenterConfigured: false, demo: false })).rejects.toThrow(
        /at least 32/,
      );
      await expect(loadSecrets(db, { appSecret: 'x'.repeat(32), helpCenterJwtSecret: undefined, helpCenterConfigured: true, demo: false })).rejects.toThrow(
        /HELPCENTER_JWT_SECRET is required/,
      );
      const a = await loadSecrets(db, { appSecret: undefined, helpCenterJwtSecret: undefined, helpCenterConfigured: false, demo: true });
      const b = await loadSecrets(db, { appSecret: undefined, helpCenterJwtSecret: undefined, helpCenterConfigured: false, demo: true });
      expect(a.source).toBe('database (demo)');
      expect(b.tokenKey).toBe(a.tokenKey);
      expect(new Set([a.tokenKey, a.altchaKey, a.altchaKeySignatureKey, a.helpCenterJwt]).size).toBe(4);
    } finally {
      await db.close();
    }
  });

  it('AES-256-GCM round trip; another key or a changed byte is refused', () => {
    const key = Buffer.alloc(32, 7);
    const sealed = encrypt(key, 'JBSWY3DPEHPK3PXP');
    expect(sealed).toMatch(/^enc1:/);
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(decrypt(key, sealed)).toBe('JBSWY3DPEHPK3PXP');
    expect(encrypt(key, 'JBSWY3DPEHPK3PXP')).not.toBe(sealed); // a fresh IV each time
    expect(() => decrypt(Buffer.alloc(32, 8), sealed)).toThrow();
    const tampered = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA');
    expect(() => decrypt(key, tampered)).toThrow();
  });
});
