import { expect, test } from '@playwright/test';
import { PASSWORD } from './helpers';

/** Platform modules on the signed-in landing page (docs/platform.md): help-centre SSO and ticket timers. */

test.describe('platform modules on the landing page', () => {
  test.beforeEach(async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('Email', { exact: true }).fill('nomfa@demo.test');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(/\/app\/$/);
  });

  test('shows the session summary', async ({ page }) => {
    await expect(page.getByTestId('platform-display-name')).toHaveText('Name: Nico Nomfa');
    await expect(page.getByText('Features: helpCenter, ticketTimers')).toBeVisible();
  });

  test('the help-centre link opens the demo help centre signed in, in a new tab', async ({ page, context }) => {
    const link = page.getByRole('link', { name: 'Help centre' });
    await expect(link).toBeVisible();
    const [helpCentre] = await Promise.all([context.waitForEvent('page'), link.click()]);
    await expect(helpCentre.getByRole('heading', { name: /signed in as nomfa@demo\.test/ })).toBeVisible();
    await expect(helpCentre).toHaveURL(/\/dev\/helpcenter\/access\/jwt\?return_to=/);
    // The app stays where it was.
    await expect(page).toHaveURL(/\/app\/$/);
  });

  test('a ticket timer survives a reload and can be stopped and removed', async ({ page }) => {
    await page.getByLabel('Ticket number').fill('4711');
    await page.getByRole('button', { name: 'Start timer' }).click();
    const row = page.getByTestId('ticket-timer-4711');
    await expect(row).toContainText('Ticket 4711');
    await expect(row).toContainText('running');
    await expect(row.getByRole('timer')).toHaveText(/^0:00:0[1-9]$/, { timeout: 5_000 });

    await page.reload();
    await expect(page.getByTestId('ticket-timer-4711')).toContainText('running');
    const stored = await page.evaluate(() => localStorage.getItem('ticket-4711-timer'));
    expect(JSON.parse(stored ?? 'null')).toMatchObject({ ttl: expect.any(Number), ts: expect.any(Number) });

    await page.getByTestId('ticket-timer-4711').getByRole('button', { name: 'Stop' }).click();
    await expect(page.getByTestId('ticket-timer-4711')).toContainText('stopped');
    await page.getByTestId('ticket-timer-4711').getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByTestId('ticket-timer-4711')).toHaveCount(0);
  });

  test('an expired timer entry is not shown', async ({ page }) => {
    await page.evaluate(() =>
      localStorage.setItem(
        'ticket-99-timer',
        JSON.stringify({
          ts: Date.now() - 10_000,
          ttl: 1_000,
          value: { timerSets: [{ start: new Date().toISOString(), stop: null }] },
        }),
      ),
    );
    await page.reload();
    await expect(page.getByText('No ticket timers.')).toBeVisible();
    await expect(page.getByTestId('ticket-timer-99')).toHaveCount(0);
  });
});
