import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHUNK_LOAD_TIMEOUT_MS, ChunkLoadError, chunkUrlOf, loadChunk } from '../../src/engine/chunk-load';

/** SPEC §2/§9: 'Loading chunk N failed' with type (missing / timeout / other) and address; 120 s time-out. */
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const importError = (url: string) => new TypeError(`Failed to fetch dynamically imported module: ${url}`);

describe('loadChunk', () => {
  it('resolves with the module when it loads', async () => {
    await expect(loadChunk('login', async () => ({ ok: 1 }))).resolves.toEqual({ ok: 1 });
  });

  it('missing: the server answers 404 for the address', async () => {
    const fetch = vi.fn(async () => new Response(null, { status: 404 }));
    vi.stubGlobal('fetch', fetch);
    const error = await loadChunk('login', () => Promise.reject(importError('http://localhost/assets/login-abc.js'))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChunkLoadError);
    expect((error as ChunkLoadError).message).toBe('Loading chunk login failed. (missing: http://localhost/assets/login-abc.js)');
    expect(fetch).toHaveBeenCalledWith('http://localhost/assets/login-abc.js', expect.objectContaining({ method: 'HEAD' }));
  });

  it('other: the file exists (or the network is down) but the import failed', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('', { status: 200 })),
    );
    const e1 = (await loadChunk('mfa', () => Promise.reject(importError('/assets/mfa-1.js'))).catch((e: unknown) => e)) as ChunkLoadError;
    expect([e1.type, e1.url]).toEqual(['other', '/assets/mfa-1.js']);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('offline');
      }),
    );
    const e2 = (await loadChunk('mfa', () => Promise.reject(importError('/assets/mfa-1.js'))).catch((e: unknown) => e)) as ChunkLoadError;
    expect(e2.type).toBe('other');
    const e3 = (await loadChunk('mfa', () => Promise.reject(new Error('boom'))).catch((e: unknown) => e)) as ChunkLoadError;
    expect([e3.type, e3.url]).toEqual(['other', 'mfa']);
  });

  it('timeout: after 120 s, not before', async () => {
    vi.useFakeTimers();
    expect(CHUNK_LOAD_TIMEOUT_MS).toBe(120_000);
    let outcome: unknown = 'pending';
    loadChunk('register', () => new Promise(() => undefined)).catch((e: unknown) => {
      outcome = e;
    });
    await vi.advanceTimersByTimeAsync(119_999);
    expect(outcome).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toBeInstanceOf(ChunkLoadError);
    expect((outcome as ChunkLoadError).type).toBe('timeout');
    expect((outcome as ChunkLoadError).message).toMatch(/^Loading chunk register failed\. \(timeout: /);
  });

  it('chunkUrlOf reads the address from the browser message', () => {
    expect(chunkUrlOf(importError('https://x.test/assets/a-1.js'))).toBe('https://x.test/assets/a-1.js');
    expect(chunkUrlOf('error loading /assets/b.js')).toBe('/assets/b.js');
    expect(chunkUrlOf(42)).toBeUndefined();
  });
});
