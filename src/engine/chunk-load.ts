/**
 * Lazily loaded code (screen chunks) with the failure report of SPEC §2/§9: 'Loading chunk N failed'
 * with the failure type (missing, timeout or other) and the requested address; 120 s time-out.
 */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

export type ChunkFailureType = 'missing' | 'timeout' | 'other';

export class ChunkLoadError extends Error {
  constructor(
    readonly chunk: string,
    readonly type: ChunkFailureType,
    readonly url: string,
  ) {
    super(`Loading chunk ${chunk} failed. (${type}: ${url})`);
    this.name = 'ChunkLoadError';
  }
}

/** The script address a failed dynamic import names ("Failed to fetch dynamically imported module: <url>"). */
export function chunkUrlOf(error: unknown): string | undefined {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  const match = /(https?:\/\/[^\s'"]+|\/assets\/[^\s'"]+)/.exec(message);
  return match?.[1];
}

/** missing when the server says the file is not there (404/410), other for anything else. */
async function classify(url: string | undefined): Promise<ChunkFailureType> {
  if (!url) return 'other';
  try {
    const response = await fetch(url, { method: 'HEAD', cache: 'no-store' });
    return response.status === 404 || response.status === 410 ? 'missing' : 'other';
  } catch {
    return 'other';
  }
}

export function loadChunk<T>(chunk: string, load: () => Promise<T>, timeoutMs = CHUNK_LOAD_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      settled = true;
      reject(new ChunkLoadError(chunk, 'timeout', `${chunk} (${timeoutMs / 1000} s)`));
    }, timeoutMs);
    load().then(
      (value) => {
        clearTimeout(timer);
        if (!settled) resolve(value);
      },
      async (error: unknown) => {
        clearTimeout(timer);
        if (settled) return;
        settled = true;
        const url = chunkUrlOf(error);
        reject(new ChunkLoadError(chunk, await classify(url), url ?? chunk));
      },
    );
  });
}
