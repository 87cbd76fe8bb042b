import type { Plugin } from 'vite';

/**
 * The entry's CSS is in every page already (inline, server/spa/html.ts), but Vite lists it among the
 * dependencies of any lazy chunk whose chunks import the entry (the shared validation chunk, the
 * passkey part, the idle chunk), and its preload helper, finding no `<link>` for it in the page, loads
 * it again as a stylesheet (4.4 kB brotli, a request at idle or on a sign-in). `resolveDependencies`
 * never sees CSS, so this drops those files from each chunk's dependency table after Vite wrote it
 * (`m.f=[...]`, read by index through `__vite__mapDeps([...])`), renumbering the indexes.
 */
export function withoutEntryCss(isEntryCss: (file: string) => boolean): Plugin {
  return {
    name: 'frontdoor:without-entry-css',
    apply: 'build',
    enforce: 'post',
    // After Vite's own generateBundle has written the tables.
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const chunk of Object.values(bundle)) {
          if (chunk.type !== 'chunk') continue;
          const table = /m\.f=\[([^\]]*)\]/.exec(chunk.code);
          if (!table) continue;
          const files = table[1]!.split(',').map((item) => JSON.parse(item) as string);
          if (!files.some(isEntryCss)) continue;
          const index = new Map<number, number>();
          const kept: string[] = [];
          files.forEach((file, at) => {
            if (isEntryCss(file)) return;
            index.set(at, kept.length);
            kept.push(file);
          });
          const listed = (numbers: string) =>
            numbers
              .split(',')
              .filter((n) => n !== '' && index.has(Number(n)))
              .map((n) => index.get(Number(n)))
              .join(',');
          chunk.code = chunk.code
            .replace(table[0], `m.f=${JSON.stringify(kept)}`)
            .replace(/__vite__mapDeps\(\[([\d,]*)\]\)/g, (_whole, numbers: string) => `__vite__mapDeps([${listed(numbers)}])`);
        }
      },
    },
  };
}
