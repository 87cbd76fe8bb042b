import { expect, test } from '@playwright/test';
import { keepRecoveryCodes } from './helpers';
import { startOwnServer, type OwnServer } from './own-server';

/**
 * The address the server prints is one where everything works, WebAuthn included: a relying party
 * must be a domain, so a loopback bind is printed as http://localhost:PORT (README), not 127.0.0.1.
 * The server is started as `npm run serve` starts it (demo mode), on a free port of its own.
 */
let server: OwnServer | undefined;
test.afterEach(() => {
  server?.stop();
  server = undefined;
});

test('the printed address is http://localhost:PORT, and a security key registers there', async ({ page }) => {
  test.setTimeout(60_000);
  server = await startOwnServer();
  const printed = server.address;
  expect(printed).toBe(`http://localhost:${server.port}`);

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
