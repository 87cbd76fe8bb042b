/**
 * What a started server's output says (its JSON log, server/ops/log.ts), for the tools and tests that
 * start one (with PORT=0 the system picks the port): its log lines, and the address of its start-up line.
 */

export interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** The JSON lines of an output (anything else, e.g. a warning of Node's own, left out). */
export function logLines(output: string): LogLine[] {
  return output.split('\n').flatMap((line) => {
    if (!line.startsWith('{')) return [];
    try {
      const parsed = JSON.parse(line) as LogLine;
      return typeof parsed.msg === 'string' ? [parsed] : [];
    } catch {
      return [];
    }
  });
}

/** The address of the start-up line (`listening on http://localhost:PORT`, field url), or undefined before it came. */
export function listeningAddress(output: string): string | undefined {
  const line = logLines(output).find((l) => l.msg.startsWith('listening on ') && typeof l.url === 'string');
  return line?.url as string | undefined;
}

/** The port of that address. */
export function listeningPort(output: string): number | undefined {
  const port = /:(\d+)$/.exec(listeningAddress(output) ?? '')?.[1];
  return port === undefined ? undefined : Number(port);
}
