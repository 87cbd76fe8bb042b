import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port';

/**
 * A throwaway PostgreSQL server for the tests, as browser.ts finds Chromium: binaries from $PG_BIN,
 * else /usr/lib/postgresql/<newest>/bin, else `initdb` on PATH, else Debian's `postgresql` package
 * installed with apt-get (as root). initdb makes a cluster in a temporary folder, it listens on
 * 127.0.0.1 on a free port, a database `frontdoor` is created, and stop() (also run at exit and on
 * SIGINT/SIGTERM) stops the server and removes the folder. Says what it used.
 *
 * As a command: `tsx scripts/postgres.ts <command …>` runs the command with DATABASE_URL set, e.g.
 * `npx tsx scripts/postgres.ts npx vitest run tests/server/data-layer.test.ts`.
 */
export interface PostgresServer {
  url: string;
  version: string;
  binDir: string;
  /** Creates another database in the cluster; its URL. */
  createDatabase(name: string): string;
  stop(): void;
}

type Log = (line: string) => void;

function hasInitdb(dir: string): boolean {
  return existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'));
}

function debianBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => /^\d+$/.test(v) && hasInitdb(join(root, v, 'bin')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : undefined;
}

function onPath(): string | undefined {
  const res = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  const file = res.status === 0 ? res.stdout.trim() : '';
  if (!file) return undefined;
  const dir = file.slice(0, file.lastIndexOf('/'));
  return hasInitdb(dir) ? dir : undefined;
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** The folder of initdb, pg_ctl and createdb, and where it came from; installs Debian's package as a last resort. */
export function findPostgresBin(log: Log = console.log): { binDir: string; source: string } {
  const fromEnv = process.env.PG_BIN;
  if (fromEnv) {
    if (!hasInitdb(fromEnv)) throw new Error(`postgres: PG_BIN=${fromEnv} has no initdb and pg_ctl`);
    return { binDir: fromEnv, source: `PG_BIN=${fromEnv}` };
  }
  const debian = debianBinDir();
  if (debian) return { binDir: debian, source: `the system PostgreSQL at ${debian}` };
  const path = onPath();
  if (path) return { binDir: path, source: `PostgreSQL on PATH at ${path}` };
  if (!isRoot() || !existsSync('/usr/bin/apt-get')) {
    throw new Error('postgres: no PostgreSQL found. Install one (Debian: apt-get install -y postgresql) or set PG_BIN to the folder of initdb and pg_ctl.');
  }
  log("postgres: no PostgreSQL found; installing Debian's postgresql package with apt-get (one-time, about a minute)...");
  // The package would create and start a system cluster on port 5432; the tests make their own.
  const conf = '/etc/postgresql-common/createcluster.conf';
  if (!existsSync(conf)) {
    mkdirSync('/etc/postgresql-common', { recursive: true });
    writeFileSync(conf, 'create_main_cluster = false\n');
  }
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', 'postgresql'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  const installed = debianBinDir();
  if (!installed) throw new Error('postgres: apt-get finished but /usr/lib/postgresql/*/bin/initdb is missing');
  return { binDir: installed, source: `Debian's postgresql package, just installed at ${installed}` };
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Runs a PostgreSQL program; as root through `su postgres` (initdb and the server refuse to run as root). */
function runAs(dir: string, file: string, args: string[]): string {
  if (!isRoot()) return execFileSync(file, args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const command = [file, ...args].map(quote).join(' ');
  return execFileSync('su', ['postgres', '-s', '/bin/sh', '-c', `cd ${quote(dir)} && ${command}`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

export async function startPostgres(log: Log = console.log): Promise<PostgresServer> {
  const { binDir, source } = findPostgresBin(log);
  const bin = (name: string) => join(binDir, name);
  const version = execFileSync(bin('pg_ctl'), ['--version'], { encoding: 'utf8' })
    .trim()
    .replace(/^pg_ctl \(PostgreSQL\) /, '');
  const dir = mkdtempSync(join(tmpdir(), 'frontdoor-pg-'));
  if (isRoot()) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  let running = false;
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      if (running) runAs(dir, bin('pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // Already gone: removing the folder is all that is left.
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const onExit = () => stop();
  const onSignal = (signal: NodeJS.Signals) => {
    stop();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('exit', onExit);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const port = await freePort();
    runAs(dir, bin('initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--no-locale', '--no-sync']);
    // A throwaway cluster: no fsync (a test never survives a power cut), room for every test's pool.
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`;
    running = true;
    runAs(dir, bin('pg_ctl'), ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', '-t', '60', 'start']);
    runAs(dir, bin('createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', 'frontdoor']);
    const url = `postgres://postgres@127.0.0.1:${port}/frontdoor`;
    log(`postgres: using PostgreSQL ${version} from ${source}; a throwaway cluster on 127.0.0.1:${port} (${dir})`);
    return {
      url,
      version,
      binDir,
      createDatabase: (name) => {
        runAs(dir, bin('createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', name]);
        return url.replace(/\/frontdoor$/, `/${name}`);
      },
      stop: () => {
        stop();
        process.off('exit', onExit);
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      },
    };
  } catch (error) {
    const detail = (error as { stderr?: string }).stderr;
    stop();
    throw new Error(`postgres: could not start a cluster with ${source}: ${detail?.trim() || (error as Error).message}`);
  }
}

// As a command: start, run the given command with DATABASE_URL, stop, exit with its status.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [cmd, ...args] = process.argv.slice(2);
  if (!cmd) {
    console.error('usage: tsx scripts/postgres.ts <command …>   (runs it with DATABASE_URL of a throwaway PostgreSQL)');
    process.exit(2);
  }
  const server = await startPostgres();
  const res = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, DATABASE_URL: server.url } });
  server.stop();
  process.exit(res.status ?? 1);
}
