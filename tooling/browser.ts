import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Finds a Chromium for the browser tests, in this order: $CHROMIUM_PATH, a system Chromium,
 * Playwright's own download, else installs Debian's package with apt (as root). Says what it did.
 */
/** How the tests, the screenshot grid and the studio's pictures run Chromium (headless, nothing in the background). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

const SYSTEM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];

function playwrightCached(): string | undefined {
  const cache = process.env.PLAYWRIGHT_BROWSERS_PATH ?? join(homedir(), '.cache/ms-playwright');
  if (!existsSync(cache)) return undefined;
  for (const dir of readdirSync(cache)
    .filter((d) => d.startsWith('chromium'))
    .sort()
    .reverse()) {
    for (const sub of ['chrome-linux64/chrome', 'chrome-linux/chrome', 'chrome-headless-shell-linux64/chrome-headless-shell']) {
      const candidate = join(cache, dir, sub);
      if (existsSync(candidate)) return candidate;
    }
  }
  return undefined;
}

export function findChromium(log: (line: string) => void = console.log): string {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv && existsSync(fromEnv)) {
    log(`browser: using CHROMIUM_PATH=${fromEnv}`);
    return fromEnv;
  }
  const system = SYSTEM.find((path) => existsSync(path));
  if (system) {
    log(`browser: using the system Chromium at ${system}`);
    return system;
  }
  const cached = playwrightCached();
  if (cached) {
    log(`browser: using Playwright's Chromium at ${cached}`);
    return cached;
  }
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !existsSync('/usr/bin/apt-get')) {
    throw new Error('browser: no Chromium found. Install one (Debian: apt-get install -y chromium) or set CHROMIUM_PATH.');
  }
  log("browser: no Chromium found; installing Debian's chromium package with apt-get (one-time, about a minute)...");
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (!existsSync('/usr/bin/chromium')) throw new Error('browser: apt-get finished but /usr/bin/chromium is missing');
  log('browser: installed /usr/bin/chromium');
  return '/usr/bin/chromium';
}
