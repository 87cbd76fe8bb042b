/**
 * A real SMTP listener for tests (the smtp-server package on 127.0.0.1, an ephemeral port): it keeps
 * every message it accepted, parsed with mailparser, and can refuse or hold messages on request.
 */
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

export interface Received {
  from: string;
  to: string[];
  raw: string;
  mail: ParsedMail;
  user?: string | undefined;
}

export interface SmtpListener {
  port: number;
  url: string;
  received: Received[];
  /** Answers a message's DATA: undefined accepts; an Error with responseCode refuses; a promise holds it. */
  answer: (raw: string, rcpt: string[]) => undefined | Error | Promise<undefined | Error>;
  /** Resolves when `n` messages were accepted. */
  waitFor(n: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startSmtpListener(options: { user?: string; password?: string; tls?: { key: string; cert: string } } = {}): Promise<SmtpListener> {
  const received: Received[] = [];
  const waiters: Array<() => void> = [];
  const listener: SmtpListener = {
    port: 0,
    url: '',
    received,
    answer: () => undefined,
    waitFor(n, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${received.length} of ${n} messages arrived`)), timeoutMs);
        const check = () => {
          if (received.length >= n) {
            clearTimeout(timer);
            resolve();
          } else waiters.push(check);
        };
        check();
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const serverOptions: SMTPServerOptions = {
    logger: false,
    // Plain smtp:// here: no STARTTLS offered (nodemailer would upgrade and distrust the test certificate).
    disabledCommands: [...(options.tls ? [] : ['STARTTLS']), ...(options.user ? [] : ['AUTH'])],
    ...(options.tls ? { secure: true, key: options.tls.key, cert: options.tls.cert } : {}),
    authOptional: !options.user,
    onAuth(auth, _session, callback) {
      if (auth.username === options.user && auth.password === options.password) return callback(null, { user: auth.username });
      return callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const rcpt = session.envelope.rcptTo.map((r) => r.address);
        const verdict = await listener.answer(raw, rcpt);
        if (verdict) return callback(verdict);
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: rcpt,
          raw,
          mail: await simpleParser(raw),
          user: session.user as string | undefined,
        });
        callback(null, `queued as m${received.length}`);
        for (const w of waiters.splice(0)) w();
      });
    },
  };
  const server = new SMTPServer(serverOptions);
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.server.address();
  listener.port = typeof address === 'object' && address ? address.port : 0;
  listener.url = `${options.tls ? 'smtps' : 'smtp'}://127.0.0.1:${listener.port}`;
  return listener;
}

/** A refusal the listener answers with (e.g. 550 no such user, 451 try later). */
export function smtpError(responseCode: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode });
}
