import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { axeOptions } from './axe';
import { APPROVER, EDITOR, latestVersion, restoreVersion, signInToStudio, studioApi } from './studio-helpers';

/**
 * Issue 29, done when: in the demo studio a person changes a label, sees the diff with before/after
 * pictures, a second person approves, it is live after the rebuild, and one action rolls it back.
 * The editor and the approver are two browsers (the demo's editor@ and approver@); the approver
 * first sends the change back with a comment, the editor saves it again, then it is approved. Each
 * view the two use passes axe. Whatever the test published is rolled back afterwards.
 */
const NOTE = 'Say work email on the sign-in form';

async function person(browser: Browser, email: string, width = 1280): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  await signInToStudio(page, email);
  return page;
}

async function expectAxeClean(page: Page, where: string) {
  const { violations } = await new AxeBuilder({ page })
    .options(axeOptions)
    .disableRules(['scrollable-region-focusable'])
    .exclude('[data-testid="studio-preview"]')
    .analyze();
  expect(violations.map((v) => `${where}: ${v.id} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/** Every picture of the change has loaded (each is a real PNG) and names its side, state, width and scheme. */
async function expectPictures(page: Page) {
  const pictures = page.getByTestId('studio-pictures').locator('img');
  await expect(pictures).toHaveCount(8);
  await expect(pictures.first()).toHaveAttribute('alt', 'Before: login, step credentials, en-us, 375 px, light');
  await expect(pictures.last()).toHaveAttribute('alt', 'After: login, step credentials, en-us, 1280 px, dark');
  await expect
    .poll(() => pictures.evaluateAll((images) => images.filter((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0).length), {
      timeout: 180_000,
      intervals: [1000],
    })
    .toBe(8);
  const widths = await pictures.evaluateAll((images) => images.map((i) => (i as HTMLImageElement).naturalWidth));
  // Full-page pictures at 375 and 1280 px (the grid's widths), before and after, light and dark.
  expect(widths).toEqual([375, 375, 375, 375, 1280, 1280, 1280, 1280]);
  await expect(page.getByTestId('studio-pictures').getByRole('img', { name: 'After: login, step credentials, en-us, 1280 px, dark' })).toBeVisible();
}

let before = 0;
test.beforeAll(async ({ playwright }) => {
  before = await latestVersion(await studioApi(playwright));
});
test.afterAll(async ({ playwright }) => {
  test.setTimeout(300_000);
  await restoreVersion(await studioApi(playwright), before);
});

test('a label changed, reviewed with its diff and pictures, approved by another person, live after the rebuild, rolled back in one action', async ({
  browser,
}) => {
  test.setTimeout(600_000);
  // The editor changes the label of the email field and asks for a review.
  const editor = await person(browser, EDITOR);
  await expect(editor.getByText('No problems')).toBeVisible({ timeout: 20_000 });
  await editor.getByLabel('What do you want to change?').selectOption({ label: 'Relabel a field, button or title' });
  await editor.getByLabel('Text', { exact: true }).selectOption({ label: 'Field: Email (email)' });
  await editor.getByLabel('New text').fill('Work email');
  await editor.getByRole('button', { name: 'Apply text' }).click();
  await expect(editor.getByTestId('studio-preview').getByLabel('Work email')).toBeVisible({ timeout: 15_000 });
  await editor.getByLabel('Note for the reviewer').fill(NOTE);
  await editor.getByRole('button', { name: 'Save draft' }).click();
  await expect(editor.getByTestId('studio-save-status')).toContainText(/Draft \d+ saved\. Nothing is live yet/);
  await editor.getByRole('button', { name: 'Request review' }).click();
  const mine = editor.getByTestId('studio-change');
  await expect(mine).toHaveAttribute('data-state', 'review');
  await expect(mine.getByTestId('studio-diff')).toContainText('Field email relabelled in en-us: “Email” → “Work email”');
  // Nobody approves their own change.
  await expect(mine.getByText('Waiting for an approver: someone other than you approves it.')).toBeVisible();
  await expect(mine.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await expectAxeClean(editor, 'editor, change in review');

  // The approver sees the diff and the pictures, and first sends it back with a comment.
  const approver = await person(browser, APPROVER);
  await approver.getByRole('button', { name: 'Changes and reviews' }).click();
  await approver.getByRole('button', { name: new RegExp(NOTE) }).click();
  const review = approver.getByTestId('studio-change');
  await expect(review.getByTestId('studio-diff').locator('li')).toHaveCount(1);
  await expect(review.getByTestId('studio-diff')).toContainText('Field email relabelled in en-us: “Email” → “Work email”');
  await expectPictures(approver);
  await expectAxeClean(approver, 'approver, change with pictures');
  await review.getByLabel('Comment for the author').fill('Is the German label changing too?');
  await review.getByRole('button', { name: 'Send back' }).click();
  await expect(review.getByRole('status').filter({ hasText: 'Sent back to its author.' })).toBeVisible();
  await expect(review).toHaveAttribute('data-state', 'draft');

  // The editor reads the comment, saves the draft again from the editor and asks again.
  await editor.getByRole('button', { name: 'Changes and reviews' }).click();
  await editor.reload();
  await editor.getByRole('button', { name: 'Changes and reviews' }).click();
  await editor.getByRole('button', { name: new RegExp(NOTE) }).click();
  await expect(editor.getByTestId('studio-change')).toContainText(`Sent back by ${APPROVER}: Is the German label changing too?`);
  await editor.getByTestId('studio-change').getByRole('button', { name: 'Open in the editor' }).click();
  await expect(editor.getByTestId('studio-save-status')).toContainText(/Editing draft \d+/);
  await expect(editor.getByTestId('studio-preview').getByLabel('Work email')).toBeVisible({ timeout: 20_000 });
  await editor.getByLabel('Note for the reviewer').fill(`${NOTE} (English only)`);
  await editor.getByRole('button', { name: 'Save draft' }).click();
  await expect(editor.getByTestId('studio-save-status')).toContainText(/Draft \d+ saved/);
  await editor.getByRole('button', { name: 'Request review' }).click();
  await expect(editor.getByTestId('studio-change')).toHaveAttribute('data-state', 'review');

  // The approver approves and publishes: a new version, live after the rebuild.
  await approver.reload();
  await approver.getByRole('button', { name: 'Changes and reviews' }).click();
  await approver.getByRole('button', { name: /English only/ }).click();
  await review.getByRole('button', { name: 'Approve' }).click();
  await expect(review).toHaveAttribute('data-state', 'approved');
  await review.getByRole('button', { name: 'Publish' }).click();
  await expect(review.getByRole('status').filter({ hasText: /Published as version \d+/ })).toBeVisible();
  await expect(review).toHaveAttribute('data-state', 'published');
  const note = approver.getByTestId('studio-publish');
  await expect(note).toContainText(/Updating the running app|Live: the running app/);
  await expect(note).toContainText('Live: the running app has the published catalogue', { timeout: 300_000 });
  const visitor = await browser.newPage();
  await visitor.goto('/login');
  await expect(visitor.getByLabel('Work email')).toBeVisible();

  // The history: the version with who wrote and who approved it; one action rolls it back.
  await approver.getByRole('button', { name: 'History' }).click();
  const history = approver.getByTestId('studio-history');
  const published = history.locator('tbody tr').first();
  await expect(published).toContainText(`${NOTE} (English only)`);
  await expect(published).toContainText(`by ${EDITOR} · approved by ${APPROVER}`);
  await expect(published).toContainText('(live)');
  await expect(approver.getByTestId('studio-comparison').getByTestId('studio-diff')).toContainText('Field email relabelled in en-us');
  await expectAxeClean(approver, 'history');
  await history.getByRole('button', { name: `Roll back to version ${before}` }).click();
  await expect(history.getByRole('status').filter({ hasText: `Rolled back to version ${before}` })).toBeVisible({ timeout: 60_000 });
  await expect(note).toContainText('Updating the running app');
  await expect(note).toContainText('Live: the running app has the published catalogue', { timeout: 300_000 });
  await expect(history.locator('tbody tr').first()).toContainText(`Rolled back to version ${before}`);
  await expect(history.locator('tbody tr').first()).toContainText(`by ${APPROVER}`);
  await visitor.reload();
  await expect(visitor.getByLabel('Email', { exact: true })).toBeVisible();
  await expect(visitor.getByLabel('Work email')).toHaveCount(0);
});

test('at 375 px the review and the history fit the screen and pass axe', async ({ browser }) => {
  const approver = await person(browser, APPROVER, 375);
  await approver.getByRole('button', { name: 'History' }).click();
  await expect(approver.getByTestId('studio-history').locator('tbody tr').first()).toBeVisible();
  await expectAxeClean(approver, 'history at 375 px');
  expect(await approver.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await approver.getByRole('button', { name: 'Changes and reviews' }).click();
  await expectAxeClean(approver, 'changes at 375 px');
  expect(await approver.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
});
