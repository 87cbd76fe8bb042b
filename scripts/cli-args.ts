import { parseArgs } from 'node:util';

/**
 * A script's command-line options (the benchmarks', the screenshots'), declared once and read by
 * node's util.parseArgs: numbers are `--name N` (positive; the default when not given), strings
 * `--name value` (the default when not given), flags are `--name`.
 * An unknown option or a number that is none stops the script with a message saying which.
 */
export function cliOptions<N extends string, F extends string = never, S extends string = never>(
  spec: { numbers: Record<N, number>; strings?: Record<S, string>; flags?: readonly F[] },
  args: string[] = process.argv.slice(2),
): Record<N, number> & Record<F, boolean> & Record<S, string> {
  const numbers = Object.keys(spec.numbers) as N[];
  const strings = Object.keys(spec.strings ?? {}) as S[];
  const flags = spec.flags ?? [];
  const usage = [...numbers.map((name) => `--${name} N`), ...strings.map((name) => `--${name} value`), ...flags.map((name) => `--${name}`)].join(' ');
  const fail = (message: string): never => {
    console.error(`${message} (options: ${usage || 'none'})`);
    process.exit(2);
  };
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args,
      options: Object.fromEntries([...[...numbers, ...strings].map((name) => [name, { type: 'string' }]), ...flags.map((name) => [name, { type: 'boolean' }])]),
      strict: true,
      allowPositionals: false,
    }) as { values: Record<string, string | boolean | undefined> });
  } catch (error) {
    return fail((error as Error).message);
  }
  const out: Record<string, number | boolean | string> = {};
  for (const name of numbers) {
    const raw = values[name];
    const value = Number(raw);
    if (raw !== undefined && (!Number.isFinite(value) || value <= 0)) fail(`--${name} takes a positive number, not "${raw}"`);
    out[name] = raw === undefined ? spec.numbers[name] : value;
  }
  for (const name of strings) out[name] = typeof values[name] === 'string' ? values[name] : (spec.strings?.[name] ?? '');
  for (const name of flags) out[name] = values[name] === true;
  return out as Record<N, number> & Record<F, boolean> & Record<S, string>;
}
