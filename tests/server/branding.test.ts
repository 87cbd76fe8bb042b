import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectContract, makeApp } from './helpers';

let app: FastifyInstance;
beforeAll(async () => {
  app = await makeApp({ appEnv: 'development' });
});
afterAll(async () => {
  await app.close();
});

const branding = async (host: string) => {
  const res = await app.inject({ url: '/branding/generalData', headers: { host } });
  expect(res.statusCode).toBe(200);
  expectContract('brandingGeneralData', res.json());
  return res.json() as Record<string, unknown>;
};

describe('branding by host', () => {
  it('localhost and 127.0.0.1: default theme, no logo or name', async () => {
    expect(await branding('localhost:8080')).toEqual({ isEnabled: true, theme: 'theme-ninja-blue' });
    expect(await branding('127.0.0.1:8080')).toEqual({ isEnabled: true, theme: 'theme-ninja-blue' });
  });
  it('branded.localhost: theme-four, Acme IT, logo and icon served by the server', async () => {
    const b = await branding('Branded.localhost:8080');
    expect(b).toMatchObject({
      isEnabled: true,
      theme: 'theme-four',
      browserName: 'Acme IT',
      loginLogo: '/branding/assets/acme-logo.svg',
      browserIcon: '/branding/assets/acme-icon.svg',
    });
    for (const url of [b.loginLogo, b.browserIcon] as string[]) {
      const img = await app.inject({ url, headers: { host: 'branded.localhost:8080' } });
      expect(img.statusCode).toBe(200);
      expect(img.headers['content-type']).toMatch(/image\/svg\+xml/);
      expect(img.body).toContain('<svg');
    }
  });
  it('closed.localhost: isEnabled false', async () => {
    expect(await branding('closed.localhost')).toEqual({ isEnabled: false });
  });
});

describe('app-config', () => {
  it('development with the ALTCHA proof-of-work bot check', async () => {
    const res = await app.inject({ url: '/ws/app-config' });
    expectContract('appConfig', res.json());
    expect(res.json()).toMatchObject({ environment: 'development', selfRegistrationEnabled: true, botCheck: { provider: 'altcha' } });
  });
  it('production with recaptcha-enterprise when a site key is set', async () => {
    const prod = await makeApp({ appEnv: 'production', recaptcha: { siteKey: 'site-key-1', projectId: 'demo-project', apiKey: 'api-key' } });
    try {
      const res = await prod.inject({ url: '/ws/app-config' });
      expectContract('appConfig', res.json());
      expect(res.json()).toMatchObject({
        environment: 'production',
        selfRegistrationEnabled: true,
        botCheck: { provider: 'recaptcha-enterprise', siteKey: 'site-key-1' },
      });
    } finally {
      await prod.close();
    }
  });
});

describe('the branding cache (services/branding.ts)', () => {
  it('a host added to the table (by the admin command, or another instance) is served once the cache time has passed; the row decides the links', async () => {
    const cached = await makeApp({ brandingCacheMs: 300 });
    try {
      const host = { host: 'new-tenant.example.test' };
      // Unknown: 421, and asking again and again reads nothing new (the cache stands for its time).
      expect((await cached.inject({ url: '/branding/generalData', headers: host })).statusCode).toBe(421);
      await cached.fd.data.run(
        "INSERT INTO branding (hostname, is_enabled, theme, browser_name, browser_enabled, public_url) VALUES ('new-tenant.example.test', 1, 'theme-four', 'New Tenant', 1, 'https://new-tenant.example.test')",
      );
      expect((await cached.inject({ url: '/branding/generalData', headers: host })).statusCode).toBe(421);
      await new Promise((resolve) => setTimeout(resolve, 400));
      const res = await cached.inject({ url: '/branding/generalData', headers: host });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ isEnabled: true, theme: 'theme-four', browserName: 'New Tenant' });
      // Its public URL is https: the cookies of that host are Secure (publicUrl.ts secureRequest).
      const session = await cached.inject({ url: '/ws/account/session', headers: host });
      expect(session.headers['strict-transport-security']).toBeDefined();
      // Control: localhost is unchanged (plain http, no HSTS).
      expect((await cached.inject({ url: '/ws/account/session' })).headers['strict-transport-security']).toBeUndefined();
    } finally {
      await cached.close();
    }
  });
});
