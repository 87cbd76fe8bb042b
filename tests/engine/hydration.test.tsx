// @vitest-environment jsdom
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, waitFor } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { hydrateRoot, type Root } from 'react-dom/client';
import loginModule from '../../src/generated/screens/login';
import { AppEngineHost, AppScreen } from '../../src/app/engine-host';
import { MessageProvider } from '../../src/app/messages';
import { MemoryRouter, Route, Routes } from '../../src/app/router';
import { startI18n } from '../../src/app/i18n';
import { forgetAppConfig } from '../../src/api/app-config';
import { readEarlyInput, takeOver } from '../../src/engine/form/early-input';

/**
 * Hydrating a prerendered sign-in form (issue 27): the server's markup of the real login screen,
 * typed into before the app runs, then hydrated. What was typed and ticked becomes the form's data
 * (the email's probe runs on it, the submit sends it), a submit held meanwhile is made, and React
 * reports no mismatch.
 */
const calls: Array<{ url: string; body: Record<string, unknown> | undefined }> = [];

function installFetch() {
  calls.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = String(input);
      calls.push({ url, body: typeof init.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined });
      const answer = url.endsWith('/authentication-state') ? { authState: 'NONE' } : url.endsWith('/login') ? { resultCode: 'AUTHENTICATION_FAILURE' } : {};
      return new Response(JSON.stringify(answer), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
}

const page = () => (
  <MessageProvider>
    <MemoryRouter initialEntries={['/login']}>
      <AppEngineHost>
        <Routes>
          <Route path="/login" element={<AppScreen module={loginModule} />} />
        </Routes>
      </AppEngineHost>
    </MemoryRouter>
  </MessageProvider>
);

let root: Root | undefined;
let container: HTMLDivElement;

beforeAll(async () => {
  await startI18n('en-us');
});
beforeEach(() => {
  installFetch();
  container = document.createElement('div');
  document.body.appendChild(container);
});
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  container.remove();
  forgetAppConfig();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const input = (name: string) => container.querySelector<HTMLInputElement>(`input[name="${name}"]`)!;

/** Types into an input as the browser does before any script: the value changes, no React handler runs. */
function typeBefore(name: string, value: string) {
  input(name).value = value;
}

describe('a prerendered sign-in form, hydrated', () => {
  it('posts plainly until the app takes it over: fields named by their field, method post, marked a plain form', () => {
    container.innerHTML = renderToString(page());
    const form = container.querySelector('form')!;
    expect(form.getAttribute('method')).toBe('post');
    expect(form.dataset.fdPlain).toBe('');
    expect([...form.querySelectorAll('input')].map((element) => element.name)).toEqual(['email', 'password', 'staySignedIn']);
  });

  it('keeps what was typed and ticked before, runs the probe on it and sends it, with no mismatch reported', async () => {
    const errors = vi.spyOn(console, 'error');
    container.innerHTML = renderToString(page());
    typeBefore('email', 'jo@example.com');
    typeBefore('password', 'typed-early');
    input('staySignedIn').checked = true;
    await act(async () => {
      root = hydrateRoot(container, page(), { onRecoverableError: (error) => console.error('recoverable', error) });
    });
    expect(container.querySelector('form')?.dataset.fdLive).toBe('');
    expect(input('email').value).toBe('jo@example.com');
    expect(input('staySignedIn').checked).toBe(true);
    await waitFor(() =>
      expect(calls.filter((call) => call.url.endsWith('/authentication-state'))).toEqual([
        { url: '/ws/account/authentication-state', body: { email: 'jo@example.com' } },
      ]),
    );
    await act(async () => {
      container.querySelector<HTMLButtonElement>('button[type="submit"]')!.click();
    });
    await waitFor(() =>
      expect(calls.find((call) => call.url.endsWith('/login'))?.body).toMatchObject({ email: 'jo@example.com', password: 'typed-early', staySignedIn: true }),
    );
    expect(errors).not.toHaveBeenCalled();
  });

  it('makes a submit held before the app was ready', async () => {
    container.innerHTML = renderToString(page());
    typeBefore('email', 'held@example.com');
    typeBefore('password', 'secret');
    container.querySelector('form')!.dataset.fdHeld = '';
    await act(async () => {
      root = hydrateRoot(container, page());
    });
    await waitFor(() => expect(calls.find((call) => call.url.endsWith('/login'))?.body).toMatchObject({ email: 'held@example.com', password: 'secret' }));
    expect(container.querySelector('form')?.dataset.fdHeld).toBeUndefined();
  });
});

describe('early input', () => {
  it('reads only what differs from the initial data, typed by the schema; taking over marks the form live', () => {
    const form = document.createElement('form');
    form.innerHTML =
      '<input name="email" value="a@b.c"><input name="count" type="number" value="4"><input type="checkbox" name="ok" checked>' +
      '<input type="radio" name="by" value="EMAIL"><input type="radio" name="by" value="TEXT" checked><input type="hidden" name="token" value="x">' +
      '<input name="same" value="kept">';
    const schema = {
      type: 'object' as const,
      properties: {
        email: { type: 'string' as const },
        count: { type: 'integer' as const },
        ok: { type: 'boolean' as const },
        by: { type: 'string' as const, enum: ['EMAIL', 'TEXT'] },
        token: { type: 'string' as const },
        same: { type: 'string' as const },
      },
    };
    expect(readEarlyInput(form, schema, { by: 'EMAIL', same: 'kept' })).toEqual({ email: 'a@b.c', count: 4, ok: true, by: 'TEXT' });
    expect(form.dataset.fdLive).toBeUndefined();
    expect(takeOver(form)).toBe(false);
    expect(form.dataset.fdLive).toBe('');
    form.dataset.fdHeld = '';
    expect(takeOver(form)).toBe(true);
    expect(takeOver(form)).toBe(false);
  });
});
