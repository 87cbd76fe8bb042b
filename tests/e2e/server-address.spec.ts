import { spawn, type ChildProcess } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { freePort } from '../../scripts/free-port';
import { keepRecoveryCodes } from './helpers';

/**
 * The address the server prints is one where everything works, WebAuthn included: a relying party
 * must be a domain, so a loopback bind is printed as http://localhost:PORT (README), not 127.0.0.1.
 * The server is started as `npm run serve` starts it (demo mode), on a free port of its own.
 */
let server: ChildProcess | undefined;
test.afterEach(() => {
  // Its own process group (detached): npx, tsx and node go together.
  if (server?.pid) process.kill(-server.pid, 'SIGTERM');
  server = undefined;
});

test('the printed address is http://localhost:PORT, and a security key registers there', async ({ page }) => {
  test.setTimeout(60_000);
  const port = await freePort();
  server = spawn('npx', ['tsx', 'server/main.ts'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DB_PATH: ':memory:', NODE_ENV: 'test', DEV_TOOLS: '1', LOG_LEVEL: 'warn' },
    detached: true,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const printed = await new Promise<string>((resolve, reject) => {
    let out = '';
    server!.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /frontdoor: (\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    server!.once('exit', (code) => reject(new Error(`server exited (${code}): ${out}`)));
  });
  expect(printed).toBe(`http://localhost:${port}`);

  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'usb', hasResidentKey: false, hasUserVerification: false, automaticPresenceSimulation: true },
  });
  await page.goto(`${printed}/login`);
  await page.getByLabel('Email', { exact: true }).fill('setup@demo.test');
  await page.getByLabel('Password', { exact: true }).fill('Demo-Passw0rd!');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('radio', { name: 'Hardware-Based Security Key' }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Security key name').fill('Desk key');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await keepRecoveryCodes(page);
  await expect(page).toHaveURL(`${printed}/app/`);
  expect((await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials).toHaveLength(1);
});
