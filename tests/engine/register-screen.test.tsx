// @vitest-environment jsdom
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { hydrateRoot, type Root } from 'react-dom/client';
import { MemoryRouter, Route, Routes } from '../../src/app/router';
import registerModule from '../../src/generated/screens/register';
import { AppEngineHost, AppScreen } from '../../src/app/engine-host';
import { MessageProvider } from '../../src/app/messages';
import { startI18n } from '../../src/app/i18n';
import { forgetAppConfig } from '../../src/api/app-config';
import { FALLBACK_SITE, SiteContext } from '../../src/app/site';
import { json, stubFetch } from '../platform/helpers';

/**
 * The real generated register screen, drawn by the app (not hydrated) and hydrated from its
 * prerendering. Its Language field is a select of a string enum whose value an on-enter outcome
 * ($env/browserLanguage) or the invite's answer ($response/language) assigns; steps mount and
 * remount client-side (Continue, Back). What broke: the select carried option indexes (rjsf's
 * StringField ignored ui:globalOptions' optionValueFormat), and every mount of a step read the
 * form's markup as if it were a prerendered page typed into, so the index ('3') replaced the
 * language, which then failed validation and a second Continue did nothing.
 */
let calls: string[] = [];

beforeAll(async () => {
  await startI18n('en-us');
});

beforeEach(() => {
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['de-DE', 'de']);
  calls = stubFetch({
    '/ws/app-config': () => json({ environment: 'development', selfRegistrationEnabled: true, botCheck: { provider: 'altcha' } }),
    '/branding/generalData': () => json({ isEnabled: true, theme: 'theme-ninja-blue' }),
    '/account/register/INVITE': () =>
      json({ resultCode: 'SUCCESS', companyName: 'Demo Co', firstName: 'Dana', lastName: 'Lee', email: 'dana.lee@demo.test', language: 'en-gb' }),
  });
});

afterEach(() => {
  cleanup();
  forgetAppConfig();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

// A deployment with self-registration on (else /register sends the visitor to /login).
const site = { ...FALLBACK_SITE, selfRegistrationEnabled: true };

const page = (path: string) => (
  <SiteContext.Provider value={site}>
    <MessageProvider>
      <MemoryRouter initialEntries={[path]}>
        <AppEngineHost>
          <Routes>
            <Route path="/register" element={<AppScreen module={registerModule} />} />
            <Route path="/register/:trialLinkCode" element={<AppScreen module={registerModule} route={registerModule.screen.routes?.[1]} />} />
          </Routes>
        </AppEngineHost>
      </MemoryRouter>
    </MessageProvider>
  </SiteContext.Provider>
);

const languageIn = (root: ParentNode) => root.querySelector<HTMLSelectElement>('select[name="language"]');
const chosen = (select: HTMLSelectElement | null) => select?.selectedOptions[0]?.textContent;

describe('the register screen drawn by the app', () => {
  it("assigns the browser's language on enter: the select shows it and its option carries the value", async () => {
    render(page('/register'));
    await waitFor(() => expect(languageIn(document)).not.toBeNull());
    const select = languageIn(document)!;
    expect(select.value).toBe('de-de');
    expect(chosen(select)).toBe('Deutsch');
  });

  it("assigns the invite's language from its answer, and Continue after Back advances again", async () => {
    const user = userEvent.setup();
    render(page('/register/INVITE'));
    await waitFor(() => expect((screen.queryByLabelText('Organization') as HTMLInputElement | null)?.value).toBe('Demo Co'));
    expect(calls).toContain('/account/register/INVITE');
    await waitFor(() => expect(languageIn(document)).not.toBeNull());
    expect(languageIn(document)!.value).toBe('en-gb');
    expect(chosen(languageIn(document))).toBe('English (UK)');
    await user.type(screen.getByLabelText('Password', { exact: true }), 'Trial-Passw0rd');
    await user.type(screen.getByLabelText('Verify Password'), 'Trial-Passw0rd');
    await user.type(await screen.findByLabelText('Cell Phone'), '+14155550143');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('heading', { name: 'Tell us about yourself' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(languageIn(document)).not.toBeNull());
    expect(languageIn(document)!.value).toBe('en-gb');
    expect((screen.getByLabelText('Organization') as HTMLInputElement).value).toBe('Demo Co');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('heading', { name: 'Tell us about yourself' })).toBeTruthy();
  });
});

describe('the register screen prerendered, then hydrated', () => {
  let root: Root | undefined;
  let container: HTMLDivElement;
  beforeEach(() => {
    container = document.createElement('div');
    document.body.appendChild(container);
  });
  afterEach(() => {
    act(() => root?.unmount());
    root = undefined;
    container.remove();
  });

  it('keeps a language chosen before the app ran, read as the value its option carries', async () => {
    const errors = vi.spyOn(console, 'error');
    container.innerHTML = renderToString(page('/register'));
    const select = languageIn(container);
    // The prerendered choice is the browser's language, the option's value the language itself.
    expect(select?.value).toBe('de-de');
    // Chosen as the browser does before any script: no React handler runs.
    select!.value = 'fr-fr';
    container.querySelector<HTMLInputElement>('input[name="companyName"]')!.value = 'Early Ltd';
    await act(async () => {
      root = hydrateRoot(container, page('/register'), { onRecoverableError: (error) => console.error('recoverable', error) });
    });
    await waitFor(() => expect(container.querySelector('form')?.dataset.fdLive).toBe(''));
    expect(languageIn(container)?.value).toBe('fr-fr');
    expect(chosen(languageIn(container))).toBe('Français (France)');
    expect(container.querySelector<HTMLInputElement>('input[name="companyName"]')!.value).toBe('Early Ltd');
    expect(errors).not.toHaveBeenCalled();
  });
});
