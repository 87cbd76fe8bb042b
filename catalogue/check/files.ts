import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/**
 * Where the check reads the catalogue from: the files on disk, with some replaced by texts held in
 * memory (the studio's unsaved edit, one mutation of the checker's mutation test). Paths are
 * relative to the project root ('screens/login.json').
 */
export class CatalogueFiles {
  readonly root: string;
  private readonly overlay: Map<string, string>;

  constructor(
    root: string,
    overlay: Record<string, string> = {},
    private readonly cache: CheckCache = new CheckCache(),
  ) {
    this.root = resolve(root);
    this.overlay = new Map(Object.entries(overlay));
  }

  rel(abs: string): string {
    return relative(this.root, abs) || abs;
  }

  /** The text of a file, or undefined when it does not exist (a read error is thrown). */
  read(rel: string): string | undefined {
    const own = this.overlay.get(rel);
    if (own !== undefined) return own;
    return this.cache.disk(join(this.root, rel));
  }

  /** The .json files of a folder, sorted, with those the overlay adds. */
  jsonFiles(relDir: string): string[] {
    const names = new Set(this.cache.list(join(this.root, relDir)).filter((name) => name.endsWith('.json')));
    for (const key of this.overlay.keys()) {
      const [dir, name] = [key.slice(0, key.lastIndexOf('/')), key.slice(key.lastIndexOf('/') + 1)];
      if (dir === relDir && name.endsWith('.json')) names.add(name);
    }
    return [...names].sort().map((name) => `${relDir}/${name}`);
  }

  /** Sub-folders of a folder, sorted, with those the overlay adds files to. */
  folders(relDir: string): string[] {
    const names = new Set(this.cache.folders(join(this.root, relDir)));
    for (const key of this.overlay.keys()) {
      if (!key.startsWith(`${relDir}/`)) continue;
      const rest = key.slice(relDir.length + 1).split('/');
      if (rest.length === 2 && rest[0]) names.add(rest[0]);
    }
    return [...names].sort();
  }

  memo<T>(key: string, deps: readonly unknown[], make: () => T): T {
    return this.cache.memo(key, deps, make);
  }
}

/**
 * What the check keeps between runs on one catalogue (the mutation test runs thousands): file texts
 * read from disk, and results derived from texts (parsed files, compiled schemas), each kept with the
 * texts it came from and made again when one of them differs. A cache belongs to one project root,
 * and assumes the files on disk do not change while it is in use.
 */
export class CheckCache {
  private readonly texts = new Map<string, string | undefined>();
  private readonly listings = new Map<string, { files: string[]; folders: string[] }>();
  private readonly values = new Map<string, { deps: readonly unknown[]; value: unknown }>();

  disk(abs: string): string | undefined {
    if (!this.texts.has(abs)) this.texts.set(abs, existsSync(abs) ? readFileSync(abs, 'utf8') : undefined);
    return this.texts.get(abs);
  }

  private listing(abs: string) {
    let entry = this.listings.get(abs);
    if (!entry) {
      const names = existsSync(abs) ? readdirSync(abs).sort() : [];
      entry = { files: names.filter((n) => !statSync(join(abs, n)).isDirectory()), folders: names.filter((n) => statSync(join(abs, n)).isDirectory()) };
      this.listings.set(abs, entry);
    }
    return entry;
  }

  list(abs: string): string[] {
    return this.listing(abs).files;
  }

  folders(abs: string): string[] {
    return this.listing(abs).folders;
  }

  memo<T>(key: string, deps: readonly unknown[], make: () => T): T {
    const known = this.values.get(key);
    if (known && known.deps.length === deps.length && known.deps.every((d, i) => d === deps[i])) return known.value as T;
    const value = make();
    this.values.set(key, { deps, value });
    return value;
  }
}
