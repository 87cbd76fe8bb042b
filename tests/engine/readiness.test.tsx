// @vitest-environment jsdom
import type { ComponentType, ReactNode } from 'react';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startI18n } from '../../src/app/i18n';
import { initialFormData } from '../../src/engine/form/initial-data';
import { lazyPart } from '../../src/engine/lazy-part';
import { ReadinessProvider, useStepReadiness, type StepReadiness } from '../../src/engine/readiness';
import type { Scope } from '../../catalogue/language/scope';

/**
 * A step is not ready while a lazy part loads, or when it failed to (src/engine/readiness.tsx,
 * lazy-part.tsx); '/field' conditions read the data a form starts with (form/initial-data.ts).
 */
beforeAll(async () => {
  await startI18n('en-us');
});
afterEach(cleanup);

function Step({ children, onReady }: { children: ReactNode; onReady(ready: boolean): void }) {
  const readiness = useStepReadiness();
  onReady(readiness.ready);
  return <ReadinessProvider value={readiness.hold}>{children}</ReadinessProvider>;
}

describe('step readiness', () => {
  it('not ready from the first commit until the lazy part has mounted', async () => {
    let resolve: (m: { default: ComponentType<object> }) => void = () => undefined;
    const Part = lazyPart<object>('part', () => new Promise((r) => (resolve = r)));
    const seen: boolean[] = [];
    render(
      <Step onReady={(ready) => seen.push(ready)}>
        <Part />
      </Step>,
    );
    // The first render cannot know yet; before anything is painted the fallback holds the step.
    expect(seen.at(-1)).toBe(false);
    await act(async () => resolve({ default: () => <p>loaded</p> }));
    expect(screen.getByText('loaded')).toBeTruthy();
    expect(seen.at(-1)).toBe(true);
  });

  it('a part whose chunk fails says so in place, with Reload, and keeps the step not ready', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(null, { status: 404 })),
    );
    const Part = lazyPart<object>('webauthn', () =>
      Promise.reject(new TypeError('Failed to fetch dynamically imported module: http://localhost/assets/WebAuthnWidget-x.js')),
    );
    const seen: boolean[] = [];
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <Step onReady={(ready) => seen.push(ready)}>
        <Part />
      </Step>,
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Part of this page could not be loaded.');
    expect(alert.textContent).toContain('Loading chunk webauthn failed. (missing: http://localhost/assets/WebAuthnWidget-x.js)');
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
    expect(seen.at(-1)).toBe(false);
    vi.unstubAllGlobals();
  });
});

describe("a widget's own submit waits for the step (whenReady)", () => {
  it('resolves at once when nothing loads, and only once the last part has mounted otherwise', async () => {
    let readiness: StepReadiness | undefined;
    function Probe({ children }: { children?: ReactNode }) {
      readiness = useStepReadiness();
      return <ReadinessProvider value={readiness.hold}>{children}</ReadinessProvider>;
    }
    render(<Probe />);
    await expect(readiness!.whenReady()).resolves.toBeUndefined();
    cleanup();
    let resolve: (m: { default: ComponentType<object> }) => void = () => undefined;
    const Part = lazyPart<object>('part', () => new Promise((r) => (resolve = r)));
    render(
      <Probe>
        <Part />
      </Probe>,
    );
    let waited = false;
    const done = readiness!.whenReady().then(() => (waited = true));
    await act(async () => undefined);
    expect(waited).toBe(false);
    await act(async () => resolve({ default: () => <p>loaded</p> }));
    await done;
    expect(waited).toBe(true);
  });
});

describe('optional parts (the passkey sign-in on /login)', () => {
  it('start loading only after the page painted, never hold the step, and are absent when their chunk fails', async () => {
    let started = 0;
    let resolve: (m: { default: ComponentType<object> }) => void = () => undefined;
    const Part = lazyPart<object>(
      'passkeySignIn',
      () => {
        started += 1;
        return new Promise((r) => (resolve = r));
      },
      { optional: true },
    );
    const seen: boolean[] = [];
    render(
      <Step onReady={(ready) => seen.push(ready)}>
        <Part />
      </Step>,
    );
    // The first render neither loads the chunk nor holds the step.
    expect(started).toBe(0);
    expect(seen.every(Boolean)).toBe(true);
    // After the paint: one animation frame (jsdom: ~16 ms) and a task.
    await act(async () => new Promise((r) => setTimeout(r, 60)));
    expect(started).toBe(1);
    expect(seen.every(Boolean)).toBe(true);
    await act(async () => resolve({ default: () => <p>passkeys</p> }));
    expect(screen.getByText('passkeys')).toBeTruthy();
    cleanup();

    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(null, { status: 404 })),
    );
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const Broken = lazyPart<object>(
      'passkeySignIn',
      () => Promise.reject(new TypeError('Failed to fetch dynamically imported module: http://localhost/assets/P.js')),
      {
        optional: true,
      },
    );
    const { container } = render(
      <Step onReady={(ready) => seen.push(ready)}>
        <p>form</p>
        <Broken />
      </Step>,
    );
    await act(async () => new Promise((r) => setTimeout(r, 50)));
    expect(container.textContent).toBe('form');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(seen.at(-1)).toBe(true);
    vi.unstubAllGlobals();
  });
});

describe('initialFormData', () => {
  const scope: Scope = { form: {}, ctx: { phone: '+14155550123' }, params: {}, query: {}, env: {}, flags: {} as Scope['flags'] };
  it("the schema's top-level defaults, overlaid by initialData", () => {
    const step = {
      schema: {
        type: 'object',
        properties: { verifyBy: { type: 'string', default: 'EMAIL' }, method: { type: 'string', default: 'SMS' }, phone: { type: 'string' } },
      },
      initialData: { method: { const: 'TOTP' }, phone: '$ctx/phone', missing: '$ctx/none' },
    };
    expect(initialFormData(step, scope)).toEqual({ verifyBy: 'EMAIL', method: 'TOTP', phone: '+14155550123' });
  });
});
