/**
 * The server's one log: JSON lines (pino), redacted as security/logging.ts says, from the first
 * configuration check to the last line of a shutdown; no plain lines beside it. The start-up lines
 * (where it listens, the mode, what is held or not served) go through `startupLog`, which writes them
 * at info even when LOG_LEVEL is warn or error (they are a handful, once per start, and an operator
 * needs them); only LOG_LEVEL=silent silences them.
 */
import { pino, type Logger } from 'pino';
import { withRedaction } from '../security/logging.js';
import { VARIABLE_NAMES } from '../env/variables.js';

/** Written synchronously to stdout: lines keep their order, and none is lost to process.exit (a refused start). */
export function createLogger(level: string, destination: pino.DestinationStream = pino.destination({ dest: 1, sync: true })): Logger {
  return pino(withRedaction({ level }) as pino.LoggerOptions, destination);
}

const QUIETER_THAN_INFO = new Set(['warn', 'error', 'fatal']);

export function startupLog(log: Logger): Logger {
  return QUIETER_THAN_INFO.has(log.level) ? log.child({}, { level: 'info' }) : log;
}

/** The variable a configuration problem is about: the first of ours its sentence names (a field of its log line). */
export function variableOf(problem: string): string | undefined {
  let first: { name: string; at: number } | undefined;
  for (const name of VARIABLE_NAMES) {
    const at = new RegExp(`\\b${name}\\b`).exec(problem)?.index;
    if (at !== undefined && (first === undefined || at < first.at)) first = { name, at };
  }
  return first?.name;
}
