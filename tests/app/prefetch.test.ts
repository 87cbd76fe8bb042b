// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ScreenModule } from '../../src/engine';

/**
 * The app host's prefetch (src/app/prefetch.ts, src/app/screens.ts prefetchScreen): a path's screen
 * through the route table, loaded once, counted as loaded only with all texts in, a failure forgotten
 * (opening the screen loads it again), then the widgets its first step names.
 */
const { loadDemo, loadOther, texts, preloadWidget } = vi.hoisted(() => ({
  loadDemo: vi.fn<() => Promise<ScreenModule>>(),
  loadOther: vi.fn<() => Promise<ScreenModule>>(),
  texts: vi.fn<() => Promise<void>>(),
  preloadWidget: vi.fn<(name: string) => Promise<unknown>>(),
}));
vi.mock('../../src/generated/catalogue', () => ({
  routes: [
    { path: '/demo', screenId: 'demo', title: 'demo.title' },
    { path: '/other/:code', screenId: 'other', title: 'other.title' },
    { path: '/third', screenId: 'third', title: 'third.title' },
  ],
  loaders: { demo: loadDemo, other: loadOther, third: loadOther },
}));
vi.mock('../../src/app/i18n', () => ({ allTexts: texts }));
vi.mock('../../widgets/registry', () => ({ preloadWidget }));

const { prefetch } = await import('../../src/app/prefetch');
const { loadedScreen, prefetchScreen, screenLoader } = await import('../../src/app/screens');

const demo = {
  screen: {
    id: 'demo',
    initialStep: 'first',
    steps: {
      first: { uiSchema: { device: { 'ui:widget': 'passkeyCreate' }, password: { 'ui:widget': 'password' } } },
      later: { uiSchema: { phone: { 'ui:widget': 'phone' } } },
    },
  },
  outcomes: { defaults: {}, visitorDefaults: {}, blocks: {}, unhandled: {} },
  validators: {},
} as unknown as ScreenModule;

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  vi.resetAllMocks();
});

describe("the app host's prefetch", () => {
  it('a failed load is forgotten: nothing counts as loaded, and opening the screen loads it again', async () => {
    loadDemo.mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module: http://localhost/assets/demo-x.js'));
    loadDemo.mockResolvedValue(demo);
    texts.mockResolvedValue(undefined);
    await expect(prefetchScreen('demo')).resolves.toBeUndefined();
    expect(loadedScreen('demo')).toBeUndefined();
    await expect(screenLoader('demo')?.()).resolves.toBe(demo);
    expect(loadDemo).toHaveBeenCalledTimes(2);
  });
});

describe("the app host's prefetch, a path's screen and its first widgets", () => {
  it('loads the screen of a path with placeholders once, counts it loaded only with all texts, then its first widgets', async () => {
    let textsIn: () => void = () => undefined;
    texts.mockReturnValue(new Promise<void>((resolve) => (textsIn = resolve)));
    loadOther.mockResolvedValue(demo);
    preloadWidget.mockResolvedValue(undefined);
    prefetch({ paths: ['/other/{code}', '/other/{code}', '/nowhere'], authenticate: false });
    prefetch({ paths: ['/other/x'], authenticate: false });
    await settle();
    expect(loadOther).toHaveBeenCalledTimes(1);
    expect(loadDemo).not.toHaveBeenCalled();
    // The chunk is in, the texts are not: opening it now must still wait (ScreenRoute's loader awaits them).
    expect(loadedScreen('other')).toBeUndefined();
    expect(preloadWidget).not.toHaveBeenCalled();
    textsIn();
    await settle();
    expect(loadedScreen('other')).toBe(demo);
    // Its first step's widgets (an rjsf name loads nothing in the registry); not a later step's.
    expect(preloadWidget.mock.calls.map(([name]) => name)).toEqual(['passkeyCreate', 'password']);
    // Loaded once: asking again loads nothing more.
    prefetch({ paths: ['/other/y'], authenticate: false });
    await settle();
    expect(loadOther).toHaveBeenCalledTimes(1);
  });

  it('a widget chunk that fails is swallowed', async () => {
    loadOther.mockResolvedValue(demo);
    texts.mockResolvedValue(undefined);
    preloadWidget.mockRejectedValue(new TypeError('Failed to fetch dynamically imported module'));
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    prefetch({ paths: ['/third'], authenticate: false });
    await settle();
    await settle();
    process.off('unhandledRejection', unhandled);
    expect(preloadWidget).toHaveBeenCalled();
    expect(unhandled).not.toHaveBeenCalled();
  });
});
