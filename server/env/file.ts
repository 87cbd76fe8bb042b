/**
 * `--env-file <path>` (or `--env-file=<path>`, several allowed) on the server's and the admin
 * command's command line: the file's variables (dotenv syntax, read by Node's util.parseEnv) are added
 * to the environment; a variable the process already has wins, as with Node's own `node --env-file`.
 * `npm start -- --env-file .env` and `npm run admin -- --env-file .env <command>` pass it through.
 */
import fs from 'node:fs';
import { parseEnv } from 'node:util';

export interface EnvFiles {
  /** The command line without the --env-file options. */
  argv: string[];
  /** The files read, in order. */
  files: string[];
  /** One line per file that could not be read. */
  problems: string[];
}

/** Reads the files argv names into env (in place: env is process.env at start-up), returns the rest of argv. */
export function applyEnvFiles(argv: readonly string[], env: NodeJS.ProcessEnv): EnvFiles {
  const rest: string[] = [];
  const files: string[] = [];
  const problems: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    let file: string | undefined;
    if (arg === '--env-file') file = argv[++i];
    else if (arg.startsWith('--env-file=')) file = arg.slice('--env-file='.length);
    else {
      rest.push(arg);
      continue;
    }
    if (!file) {
      problems.push('--env-file needs a file: --env-file .env');
      continue;
    }
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (error) {
      problems.push(`--env-file ${file} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`);
      continue;
    }
    files.push(file);
    for (const [name, value] of Object.entries(parseEnv(text))) if (env[name] === undefined) env[name] = value;
  }
  return { argv: rest, files, problems };
}
