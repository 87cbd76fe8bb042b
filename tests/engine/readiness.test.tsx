// @vitest-environment jsdom
import type { ComponentType, ReactNode } from 'react';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
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
  /** The browser's idle callbacks, run by the test (src/lib/idle.ts asks requestIdleCallback). */
  const idle: Array<() => void> = [];
  beforeEach(() => {
    idle.length = 0;
    vi.stubGlobal('requestIdleCallback', (task: () => void) => idle.push(task));
    vi.stubGlobal('cancelIdleCallback', () => undefined);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });
  const runIdle = () => act(async () => idle.splice(0).forEach((task) => task()));

  function deferredPart() {
    const state: { started: number; resolve(module: { default: ComponentType<object> }): void } = { started: 0, resolve: () => undefined };
    const Part = lazyPart<object>(
      'passkeySignIn',
      () => {
        state.started += 1;
        return new Promise((r) => (state.resolve = r));
      },
      { optional: true },
    );
    return { state, Part };
  }

  it('start loading only once the page is idle, never hold the step, and are absent when their chunk fails', async () => {
    const { state, Part } = deferredPart();
    const seen: boolean[] = [];
    render(
      <Step onReady={(ready) => seen.push(ready)}>
        <Part />
      </Step>,
    );
    // The render (hydration's, on a prerendered page) neither loads the chunk nor holds the step.
    expect(state.started).toBe(0);
    expect(seen.every(Boolean)).toBe(true);
    await runIdle();
    expect(state.started).toBe(1);
    expect(seen.every(Boolean)).toBe(true);
    await act(async () => state.resolve({ default: () => <p>passkeys</p> }));
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
    await runIdle();
    await act(async () => undefined);
    expect(container.textContent).toBe('form');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(seen.at(-1)).toBe(true);
  });

  it('start loading when the visitor focuses a field before the page is idle (the passkey autofill needs its request then)', async () => {
    const { state, Part } = deferredPart();
    render(
      <Step onReady={() => undefined}>
        <input aria-label="Email" />
        <Part />
      </Step>,
    );
    expect(state.started).toBe(0);
    await act(async () => screen.getByRole('textbox', { name: 'Email' }).focus());
    expect(state.started).toBe(1);
    // Idle later starts nothing more.
    await runIdle();
    expect(state.started).toBe(1);
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
