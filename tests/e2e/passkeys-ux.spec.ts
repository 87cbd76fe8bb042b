import { chromium, expect, test, type Page } from '@playwright/test';
import { E2E_PORT } from '../../playwright.config';
import { CHROMIUM_ARGS } from '../../tooling/browser';
import { startWellKnownForwarder } from '../../scripts/well-known-https';
import { expectAlert, freshDemoTenantForEachTest, outbox, signIn } from './helpers';
import { addAuthenticator, conditionalCreates, credentialsOf, signalCalls, spyOnSignals, standInForPasswordManager } from './passkey-browser';

/**
 * Issue 37 in Chromium with its virtual authenticator (tests/e2e/passkey-browser.ts says what the
 * init scripts stand in for): a password sign-in creates a passkey silently where the browser can
 * (conditional create), with no screen on the way; a passkey sign-in and a removal tell the browser's
 * password manager which passkeys still sign in (the virtual authenticator deletes the others); a
 * passkey made on one branded host signs in on another (related origins). The offer screen, for a
 * browser without conditional create, is tests/e2e/passkeys.spec.ts; no screen when nothing is
 * offered, signin.spec.ts.
 */
freshDemoTenantForEachTest();

/** Every address the page's main frame went to. */
function visits(page: Page): string[] {
  const urls: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) urls.push(frame.url());
  });
  return urls;
}

test('a password sign-in creates a passkey silently; sign-ins and removals keep the password manager in step', async ({ page, request }) => {
  const { cdp, authenticatorId } = await addAuthenticator(page);
  await standInForPasswordManager(page);
  await spyOnSignals(page);
  const went = visits(page);
  const asked: string[] = [];
  page.on('request', (r) => asked.push(new URL(r.url()).pathname));

  await signIn(page, 'nomfa@demo.test');
  await expect(page).toHaveURL(/\/app\/$/);
  // No offer screen on the way, not even loaded: the answer said OFFER, and the browser can create one itself.
  expect(went.filter((url) => new URL(url).pathname === '/passkey')).toEqual([]);
  expect(asked.filter((path) => path === '/ws/account/passkey/offer' || /\/assets\/passkeyOffer-/.test(path))).toEqual([]);
  expect(await conditionalCreates(page)).toEqual([{ hints: ['client-device'], userVerification: 'preferred', rpId: 'localhost' }]);
  const [made] = await credentialsOf(cdp, authenticatorId);
  expect(made).toMatchObject({ rpId: 'localhost', userName: 'nomfa@demo.test' });
  expect((await outbox(request, 'nomfa@demo.test')).map((m) => m.subject)).toContain('A passkey was added to your Front Door account');

  // Signed out, the autofill list's passkey signs in; the answer's signals reach the browser.
  // The page is on /app/ before the click too: wait for what the passkey sign-in does, not for the address.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect
    .poll(() => signalCalls(page))
    .toContainEqual({ name: 'signalAllAcceptedCredentials', options: expect.objectContaining({ allAcceptedCredentialIds: [made!.id] }) });
  expect(await signalCalls(page)).toContainEqual({
    name: 'signalCurrentUserDetails',
    options: expect.objectContaining({ rpId: 'localhost', name: 'nomfa@demo.test', displayName: 'Nico Nomfa' }),
  });
  await expect(page).toHaveURL(/\/app\/$/);
  await expect(page.getByText('Signed in as nomfa@demo.test')).toBeVisible();

  // Removed elsewhere ("This wasn't me" from the email, another browser): at the next sign-in the server
  // answers that the credential is unknown, the page says so, and the browser forgets it.
  const link = (await outbox(request, 'nomfa@demo.test')).find((m) => m.link?.includes('/passkey/not-me/'))?.link;
  const token = decodeURIComponent(link!.split('/').pop()!);
  expect((await (await request.post('/ws/account/passkey/not-me', { data: { token } })).json()) as object).toMatchObject({ resultCode: 'SUCCESS', removed: 1 });
  await page.goto('/login');
  await expectAlert(page, 'This passkey has been removed and no longer signs in. Sign in with your password.');
  expect(await signalCalls(page)).toContainEqual({ name: 'signalUnknownCredential', options: { rpId: 'localhost', credentialId: made!.id } });
  await expect.poll(async () => (await credentialsOf(cdp, authenticatorId)).length).toBe(0);
  // Control: the password still signs in.
  await signIn(page, 'nomfa@demo.test');
  await expect(page).toHaveURL(/\/app\/$/);
});

test('a passkey made on branded.localhost signs in on localhost (one RP ID, related origins)', async () => {
  // Chromium asks https://localhost/.well-known/webauthn (port 443) before branded.localhost may use the RP ID
  // localhost: a forwarder over https to this worker's server stands in for it (scripts/well-known-https.ts).
  const forwarder = await startWellKnownForwarder(`http://localhost:${E2E_PORT}`);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...forwarder.chromiumArgs] });
  try {
    const page = await (await browser.newContext()).newPage();
    const { cdp, authenticatorId } = await addAuthenticator(page);
    await standInForPasswordManager(page);
    await signIn(page, 'nomfa@demo.test', undefined, { path: `http://branded.localhost:${E2E_PORT}/login` });
    await expect(page).toHaveURL(`http://branded.localhost:${E2E_PORT}/app/`);
    expect(await conditionalCreates(page)).toEqual([expect.objectContaining({ rpId: 'localhost' })]);
    const [made] = await credentialsOf(cdp, authenticatorId);
    expect(made).toMatchObject({ rpId: 'localhost', userName: 'nomfa@demo.test' });
    expect(forwarder.requests).toContain('/.well-known/webauthn');

    await page.context().clearCookies();
    await page.goto(`http://localhost:${E2E_PORT}/login`);
    await expect(page).toHaveURL(`http://localhost:${E2E_PORT}/app/`);
    await expect(page.getByText('Signed in as nomfa@demo.test')).toBeVisible();
    expect((await credentialsOf(cdp, authenticatorId))[0]!.id).toBe(made!.id);
  } finally {
    await browser.close();
    await forwarder.close();
  }
});
