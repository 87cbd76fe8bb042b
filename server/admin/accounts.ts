/**
 * The account commands of `npm run admin`: create-tenant, create-user, reset-mfa, unlock (what they do
 * is in commands.ts, on the data layer).
 */
import { AdminError, EXIT, createTenant, createUser, resetMfa, unlock, type AdminCommand as Command, type Options, type UserInput } from './commands.js';

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

export const ACCOUNT_COMMANDS: Record<string, Command> = {
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
};
