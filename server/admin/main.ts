/**
 * `npm run admin -- <command> [options]` (in the image: `node dist/server/admin/main.js …`): the
 * operator's tool for what would otherwise take raw SQL. The database is the server's: DATABASE_URL
 * (PostgreSQL) or DB_PATH (SQLite, default data/app.sqlite); it is migrated first, like a start.
 * Exit codes: 0 done, 1 the database failed, 2 the command line is wrong, 3 the target is missing or taken.
 */
import { parseArgs } from 'node:util';
import { checkDatabase } from '../config.js';
import { openDatabase } from '../db/open.js';
import { createPasswordService } from '../services/passwords.js';
import {
  AdminError,
  EXIT,
  createTenant,
  createUser,
  resetMfa,
  unlock,
  type AdminCommand as Command,
  type AdminContext,
  type Options,
  type UserInput,
} from './commands.js';
import { PASSKEY_COMMANDS } from './passkeys.js';
import { SSO_COMMANDS } from './sso.js';
import { TENANT_COMMANDS } from './tenantSettings.js';

const USER_OPTIONS = {
  email: { type: 'string' },
  'first-name': { type: 'string' },
  'last-name': { type: 'string' },
  phone: { type: 'string' },
  language: { type: 'string' },
  'no-mfa': { type: 'boolean' },
  'password-stdin': { type: 'boolean' },
} satisfies Options;

async function readStdinPassword(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

async function userInput(values: Record<string, string | boolean | undefined>): Promise<UserInput> {
  const str = (name: string) => values[name] as string | undefined;
  if (!str('email')) throw new AdminError('--email is required', EXIT.usage);
  return {
    email: str('email') as string,
    firstName: str('first-name'),
    lastName: str('last-name'),
    phone: str('phone'),
    language: str('language'),
    mfa: values['no-mfa'] ? false : true,
    ...(values['password-stdin'] ? { password: await readStdinPassword() } : {}),
  };
}

function passwordLines(user: { email: string; temporaryPassword?: string }, out: (line: string) => void): void {
  if (user.temporaryPassword) {
    out(`  temporary password of ${user.email}: ${user.temporaryPassword}`);
    out('  (shown once; a new password is asked for at the first sign-in)');
  }
}

const COMMANDS: Record<string, Command> = {
  'create-tenant': {
    summary: 'an organisation with its first administrator (sysadmin) and, with --host, its branded host',
    usage:
      'create-tenant --name <organisation> --email <administrator> [--first-name …] [--last-name …] [--phone +…] [--language en-us] [--no-mfa] [--password-stdin]\n' +
      '              [--host signin.acme.com [--public-url https://signin.acme.com] [--theme theme-four] [--logo /branding/assets/x.svg] [--icon …]]',
    options: {
      ...USER_OPTIONS,
      name: { type: 'string' },
      host: { type: 'string' },
      'public-url': { type: 'string' },
      theme: { type: 'string' },
      logo: { type: 'string' },
      icon: { type: 'string' },
    },
    async run(ctx, values, out) {
      const admin = await userInput(values);
      const tenant = await createTenant(ctx, {
        name: (values.name as string | undefined) ?? '',
        admin,
        host: values.host as string | undefined,
        publicUrl: values['public-url'] as string | undefined,
        theme: values.theme as string | undefined,
        logo: values.logo as string | undefined,
        icon: values.icon as string | undefined,
      });
      out(`tenant "${tenant.name}" created: organisation ${tenant.organizationId}`);
      out(`  administrator ${tenant.admin.email} (user ${tenant.admin.id}, sysadmin${admin.mfa === false ? '' : ', sets up MFA at the first sign-in'})`);
      passwordLines(tenant.admin, out);
      if (tenant.host) out(`  branded host ${tenant.host.hostname}, links in emails to ${tenant.host.publicUrl}`);
    },
  },
  'create-user': {
    summary: 'a user of an existing organisation',
    usage:
      'create-user --organization <number> --email <email> [--first-name …] [--last-name …] [--type TECHNICIAN|END_USER] [--sysadmin] [--phone +…] [--language en-us] [--no-mfa] [--password-stdin]',
    options: { ...USER_OPTIONS, organization: { type: 'string' }, type: { type: 'string' }, sysadmin: { type: 'boolean' } },
    async run(ctx, values, out) {
      const raw = values.organization as string | undefined;
      if (!raw || !/^\d+$/.test(raw)) throw new AdminError('--organization is required: the organisation number create-tenant printed', EXIT.usage);
      const user = await createUser(ctx, {
        ...(await userInput(values)),
        organizationId: Number(raw),
        userType: values.type as string | undefined,
        sysadmin: values.sysadmin === true,
      });
      out(`user ${user.email} created in organisation ${user.organizationId} (user ${user.id})`);
      passwordLines(user, out);
    },
  },
  'reset-mfa': {
    summary: "remove a user's MFA methods and passkeys; the next sign-in sets MFA up again",
    usage: 'reset-mfa --email <email>',
    options: { email: { type: 'string' } },
    async run(ctx, values, out) {
      if (!values.email) throw new AdminError('--email is required', EXIT.usage);
      const r = await resetMfa(ctx, values.email as string);
      out(`MFA of ${r.email} reset: ${r.methods} method(s) and ${r.passkeys} passkey(s) removed, ${r.pendingSignIns} sign-in(s) waiting for a code ended`);
    },
  },
  unlock: {
    summary: 'clear the failed sign-in, reset and code budgets of an account',
    usage: 'unlock --email <email>',
    options: { email: { type: 'string' } },
    async run(ctx, values, out) {
      if (!values.email) throw new AdminError('--email is required', EXIT.usage);
      const r = await unlock(ctx, values.email as string);
      out(`${r.email} unlocked: ${r.counters} counter(s) cleared${r.accountExists ? '' : ' (no account has this email)'}`);
    },
  },
  ...PASSKEY_COMMANDS,
  ...SSO_COMMANDS,
  ...TENANT_COMMANDS,
};

export function helpText(): string {
  return [
    'usage: npm run admin -- <command> [options]     (image: node dist/server/admin/main.js <command> …)',
    '',
    'commands:',
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(14)} ${c.summary}`),
    `  ${'help'.padEnd(14)} this text; help <command> for its options`,
    '',
    'database: DATABASE_URL (postgres://…) or DB_PATH (SQLite file, default data/app.sqlite), as for the server.',
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

/** Runs one command line; resolves with the exit code. */
export async function runAdmin(argv: string[], io: AdminIo): Promise<number> {
  const [name, ...rest] = argv;
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
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({ args: rest, options: command.options, strict: true, allowPositionals: false }).values as Record<string, string | boolean | undefined>;
  } catch (error) {
    io.err(`admin: ${(error as Error).message}\nusage: npm run admin -- ${command.usage}`);
    return EXIT.usage;
  }
  // The same database settings and checks as the server (DATABASE_URL, DB_PATH, DATABASE_POOL_SIZE).
  const problems: string[] = [];
  const database = checkDatabase(io.env, problems);
  if (problems.length) {
    for (const p of problems) io.err(`admin: ${p}`);
    return EXIT.usage;
  }
  const db = openDatabase(database.engine === 'postgres' ? { ...database, poolSize: 2 } : database);
  try {
    await db.migrate();
    await command.run({ db, passwords: io.passwords ?? createPasswordService(), now: Date.now, env: io.env }, values, io.out);
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
