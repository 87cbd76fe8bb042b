// @vitest-environment jsdom
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SWRConfig } from 'swr';
import type { ReactNode } from 'react';
import { startI18n } from '../../src/app/i18n';
import { ticketStatusStore } from '../../src/platform';
import TicketTimers from '../../widgets/content/ticketTimers/TicketTimers';
import HelpCenterLink from '../../widgets/content/helpCenterLink/HelpCenterLink';
import SessionSummary from '../../widgets/content/sessionSummary/SessionSummary';
import type { ContentProps } from '../../widgets/content/registry';
import { json, SESSION, stubFetch } from './helpers';
import { forgetAppConfig } from '../../src/api/app-config';

const props: ContentProps = {
  ctx: {},
  data: () => ({}),
  runCall: async () => undefined,
  runOutcome: async () => undefined,
  submit: async () => undefined,
  busy: false,
};
/** A fresh swr cache per render: what a page load gets. */
const fresh = (node: ReactNode) => <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>{node}</SWRConfig>;

const APP_CONFIG = {
  environment: 'development',
  selfRegistrationEnabled: true,
  botCheck: { provider: 'altcha' },
  helpCenter: { host: 'http://localhost:3000/dev/helpcenter', governmentHost: 'http://localhost:3000/dev/helpcenter' },
};

function routes(overrides: Record<string, () => Response> = {}) {
  return stubFetch({
    '/ws/account/session': () => json(SESSION),
    '/ws/app-config': () => json(APP_CONFIG),
    '/ws/ticketing/statuses': () =>
      json({
        statuses: [
          { id: 1, name: 'New' },
          { id: 2, name: 'Closed' },
        ],
      }),
    '/ws/sentry/state': () => json({ enabled: false }),
    '/ws/helpcenter/sso-token': () => json({ jwt: 'j.w.t' }),
    ...overrides,
  });
}

beforeAll(async () => {
  await startI18n('en-us');
});
beforeEach(() => {
  localStorage.clear();
  ticketStatusStore.reset();
});
afterEach(() => {
  forgetAppConfig();
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('TicketTimers', () => {
  it('starts a timer that survives a reload (remount over the same localStorage), then stops it', async () => {
    routes();
    const user = userEvent.setup();
    const first = render(fresh(<TicketTimers {...props} />));
    await user.type(await screen.findByLabelText('Ticket number'), '1234');
    await user.click(screen.getByRole('button', { name: 'Start timer' }));
    expect(screen.getByTestId('ticket-timer-1234').textContent).toContain('Ticket 1234');
    expect(screen.getByTestId('ticket-timer-1234').textContent).toContain('running');
    expect(localStorage.getItem('ticket-1234-timer')).toContain('"timerSets"');
    first.unmount();

    render(fresh(<TicketTimers {...props} />));
    const row = await screen.findByTestId('ticket-timer-1234');
    expect(row.textContent).toContain('running');
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    expect(screen.getByTestId('ticket-timer-1234').textContent).toContain('stopped');
    await user.click(screen.getByRole('button', { name: 'Remove' }));
    expect(screen.queryByTestId('ticket-timer-1234')).toBeNull();
    expect(localStorage.getItem('ticket-1234-timer')).toBeNull();
    expect(await screen.findByText('Ticket statuses: New, Closed')).toBeTruthy();
  });
  it('refuses a bad ticket number with a message', async () => {
    routes();
    const user = userEvent.setup();
    render(fresh(<TicketTimers {...props} />));
    await user.type(await screen.findByLabelText('Ticket number'), 'no way');
    await user.click(screen.getByRole('button', { name: 'Start timer' }));
    expect(screen.getByText('Enter a ticket number (letters, digits or _).')).toBeTruthy();
    expect(localStorage.length).toBe(0);
  });
  it('expired timers do not show', async () => {
    routes();
    localStorage.setItem(
      'ticket-5-timer',
      JSON.stringify({ ts: Date.now() - 10_000, ttl: 1000, value: { timerSets: [{ start: new Date().toISOString(), stop: null }] } }),
    );
    render(fresh(<TicketTimers {...props} />));
    expect(await screen.findByText('No ticket timers.')).toBeTruthy();
    expect(localStorage.getItem('ticket-5-timer')).toBeNull();
  });
  it('shows ticketing.errorFetchingStatusList when the status list fails', async () => {
    routes({ '/ws/ticketing/statuses': () => json({ error: 'INTERNAL', message: 'x' }, 500) });
    render(fresh(<TicketTimers {...props} />));
    expect((await screen.findByRole('alert')).textContent).toBe('The ticket status list could not be loaded.');
  });
  it('is hidden without the ticketTimers flag', async () => {
    const urls = routes({ '/ws/account/session': () => json({ ...SESSION, features: [] }) });
    render(fresh(<TicketTimers {...props} />));
    await waitFor(() => expect(urls).toContain('/ws/account/session'));
    await act(async () => {
      await new Promise((r) => setTimeout(r, 20));
    });
    expect(screen.queryByLabelText('Ticket number')).toBeNull();
  });
});

describe('HelpCenterLink', () => {
  it('opens the named window in the click and posts the token into it', async () => {
    routes();
    const tab = { close: vi.fn(), opener: null };
    const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const submit = vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => undefined);
    const user = userEvent.setup();
    render(fresh(<HelpCenterLink {...props} />));
    const link = await screen.findByRole('link', { name: 'Help centre' });
    expect(link.getAttribute('href')).toBe('http://localhost:3000/dev/helpcenter');
    await user.click(link);
    expect(open).toHaveBeenCalledWith('about:blank', 'fd-helpcenter');
    await waitFor(() => expect(submit).toHaveBeenCalledTimes(1));
    const form = submit.mock.contexts[0] as HTMLFormElement;
    expect(form.action).toBe('http://localhost:3000/dev/helpcenter/access/jwt?return_to=');
    expect(form.target).toBe('fd-helpcenter');
  });
  it('shows an error when the token cannot be fetched', async () => {
    routes({ '/ws/helpcenter/sso-token': () => json({ error: 'INTERNAL', message: 'x' }, 500) });
    vi.spyOn(window, 'open').mockReturnValue({ close: vi.fn() } as unknown as Window);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const user = userEvent.setup();
    render(fresh(<HelpCenterLink {...props} />));
    await user.click(await screen.findByRole('link', { name: 'Help centre' }));
    expect((await screen.findByRole('alert')).textContent).toContain('The help centre could not be opened. Please try again.');
  });
});

describe('SessionSummary', () => {
  it('shows the mapped user, site, flags and error-reporting state', async () => {
    routes();
    render(fresh(<SessionSummary {...props} />));
    expect(await screen.findByText('Name: Nico Nomfa')).toBeTruthy();
    expect(screen.getByText('Site: http://localhost:8080')).toBeTruthy();
    expect(screen.getByText('Features: helpCenter, ticketTimers')).toBeTruthy();
    expect(await screen.findByText('Error reporting is off.')).toBeTruthy();
    expect(screen.queryByText('System administrator')).toBeNull();
  });
  it('falls back to the email and marks sysadmins', async () => {
    routes({
      '/ws/account/session': () =>
        json({ ...SESSION, user: { email: 'setup@demo.test', id: 2, uid: 'u', entityType: 'TECHNICIAN', sysadmin: true }, features: [] }),
    });
    render(fresh(<SessionSummary {...props} />));
    expect(await screen.findByText('Name: setup@demo.test')).toBeTruthy();
    expect(screen.getByText('System administrator')).toBeTruthy();
    expect(screen.getByText('No optional features are enabled.')).toBeTruthy();
  });
});
