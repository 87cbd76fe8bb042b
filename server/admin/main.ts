/**
 * `npm run admin -- <command> [options]` (in the image: `node dist/server/admin/main.js …`): the
 * operator's tool for what would otherwise take raw SQL. The database is the server's: DATABASE_URL
 * (PostgreSQL) or DB_PATH (SQLite, default data/app.sqlite); it is migrated first, like a start
 * (but for `migrate`, which does that alone or, with --status, only reports).
 * Exit codes: 0 done, 1 the database failed, 2 the command line is wrong, 3 the target is missing or taken.
 */
import { parseArgs } from 'node:util';
import { checkDatabase } from '../config.js';
import { openDatabase } from '../db/open.js';
import { applyEnvFiles } from '../env/file.js';
import { createPasswordService } from '../crypto/passwords.js';
import { ACCOUNT_COMMANDS } from './accounts.js';
import { BACKUP_COMMANDS } from './backup.js';
import { AdminError, EXIT, type AdminCommand as Command, type AdminContext } from './commands.js';
import { MIGRATE_COMMANDS } from './migrate.js';
import { PASSKEY_COMMANDS } from './passkeys.js';
import { ROTATE_COMMANDS } from './rotateSecret.js';
import { SSO_COMMANDS } from './sso.js';
import { TENANTS_COMMANDS } from './tenants.js';
import { USERS_COMMANDS } from './users.js';
import { TENANT_COMMANDS } from './tenantSettings.js';

const COMMANDS: Record<string, Command> = {
  ...ACCOUNT_COMMANDS,
  ...PASSKEY_COMMANDS,
  ...TENANTS_COMMANDS,
  ...USERS_COMMANDS,
  ...TENANT_COMMANDS,
  ...SSO_COMMANDS,
  ...MIGRATE_COMMANDS,
  ...ROTATE_COMMANDS,
  ...BACKUP_COMMANDS,
};

export function helpText(): string {
  return [
    'usage: npm run admin -- <command> [options]     (image: node dist/server/admin/main.js <command> …)',
    '',
    'commands:',
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(14)} ${c.summary}`),
    `  ${'help'.padEnd(14)} this text; help <command> for its options`,
    '',
    'database: DATABASE_URL (postgres://…) or DB_PATH (SQLite file, default data/app.sqlite), as for the server;',
    '--env-file <path> before or after the command reads variables from a file (the environment wins).',
    'exit codes: 0 done, 1 the database failed, 2 the command line is wrong, 3 the target is missing or taken.',
  ].join('\n');
}

export interface AdminIo {
  out: (line: string) => void;
  err: (line: string) => void;
  env: NodeJS.ProcessEnv;
  /** Test seam: a cheaper password hash. */
  passwords?: AdminContext['passwords'];
}

/** Runs one command line; resolves with the exit code. `--env-file <path>` anywhere adds a file's variables (the environment wins). */
export async function runAdmin(commandLine: string[], io: AdminIo): Promise<number> {
  const env = { ...io.env };
  const files = applyEnvFiles(commandLine, env);
  if (files.problems.length) {
    for (const p of files.problems) io.err(`admin: ${p}`);
    return EXIT.usage;
  }
  const [name, ...rest] = files.argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    const command = rest[0] !== undefined ? COMMANDS[rest[0]] : undefined;
    io.out(command ? `usage: npm run admin -- ${command.usage}` : helpText());
    return rest[0] !== undefined && !command ? EXIT.usage : EXIT.ok;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.err(`admin: unknown command ${JSON.stringify(name)}\n${helpText()}`);
    return EXIT.usage;
  }
  return runAdminCommand(command, rest, { ...io, env }, name);
}

/** One command with its arguments (tests: a command made with a seam, e.g. its secret reader); resolves with the exit code. */
export async function runAdminCommand(command: Command, rest: string[], io: AdminIo, name = 'the command'): Promise<number> {
  const { env } = io;
  let values: Record<string, string | boolean | undefined>;
  try {
    const parsed = parseArgs({ args: rest, options: command.options, strict: true, allowPositionals: command.actions !== undefined });
    values = parsed.values as Record<string, string | boolean | undefined>;
    if (command.actions) {
      const [action, ...more] = parsed.positionals;
      if (action === undefined || !command.actions.includes(action) || more.length > 0)
        throw new Error(
          `${name} takes one of ${command.actions.join(', ')}${action === undefined ? '' : `, not ${JSON.stringify([action, ...more].join(' '))}`}`,
        );
      values = { ...values, action };
    }
  } catch (error) {
    io.err(`admin: ${(error as Error).message}\nusage: npm run admin -- ${command.usage}`);
    return EXIT.usage;
  }
  // The same database settings and checks as the server (DATABASE_URL, DB_PATH, DATABASE_POOL_SIZE).
  const problems: string[] = [];
  const database = checkDatabase(env, problems);
  if (problems.length) {
    for (const p of problems) io.err(`admin: ${p}`);
    return EXIT.usage;
  }
  const db = openDatabase(database.engine === 'postgres' ? { ...database, poolSize: 2 } : database);
  try {
    if (command.migrateFirst !== false) await db.migrate();
    await command.run({ db, passwords: io.passwords ?? createPasswordService(), now: Date.now, env }, values, io.out);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof AdminError) {
      io.err(`admin: ${error.message}`);
      return error.exitCode;
    }
    io.err(`admin: ${name} failed on ${db.description}: ${(error as Error).message}`);
    return EXIT.failed;
  } finally {
    await db.close().catch(() => undefined);
  }
}

if (process.argv[1] && /admin[/\\]main\.[jt]s$/.test(process.argv[1])) {
  const code = await runAdmin(process.argv.slice(2), { out: (l) => console.log(l), err: (l) => console.error(l), env: process.env });
  process.exit(code);
}
