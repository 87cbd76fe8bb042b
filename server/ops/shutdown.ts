/**
 * Graceful shutdown: on SIGTERM (or SIGINT) stop accepting connections, let the requests in flight
 * finish, run the onClose hooks (the database closes there), exit 0. When the deadline passes first,
 * exit 1, so an orchestrator sees that requests were cut. A second signal exits at once (1).
 */
import type { EventEmitter } from 'node:events';
import type { FastifyInstance } from 'fastify';

export interface ShutdownOptions {
  timeoutMs: number;
  /** Where the signals come from (default process). */
  signals?: Pick<EventEmitter, 'on' | 'off'>;
  exit?: (code: number) => void;
  log?: (line: string) => void;
}

/** Installs the handlers; returns a function that removes them. */
export function installGracefulShutdown(app: FastifyInstance, options: ShutdownOptions): () => void {
  const signals = options.signals ?? process;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const log = options.log ?? ((line: string) => console.log(line));
  let closing = false;
  const onSignal = (signal: string) => {
    if (closing) {
      log(`${signal} again: exiting now`);
      exit(1);
      return;
    }
    closing = true;
    log(`${signal}: closing (no new connections; requests in flight have ${options.timeoutMs} ms)`);
    const deadline = setTimeout(() => {
      log(`shutdown deadline of ${options.timeoutMs} ms passed with requests still in flight; exiting 1`);
      exit(1);
    }, options.timeoutMs);
    app.close().then(
      () => {
        clearTimeout(deadline);
        log('closed');
        exit(0);
      },
      (error: unknown) => {
        clearTimeout(deadline);
        log(`error while closing: ${(error as Error).message}`);
        exit(1);
      },
    );
  };
  const handlers = (['SIGTERM', 'SIGINT'] as const).map((signal) => [signal, () => onSignal(signal)] as const);
  for (const [signal, handler] of handlers) signals.on(signal, handler);
  return () => {
    for (const [signal, handler] of handlers) signals.off(signal, handler);
  };
}
