import type { Plugin } from 'vite';

/** V8's magic comment for eager compilation of a whole file (Chromium 136+); V8 reads it only as a file's first line. */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/**
 * The entry chunk starts with V8's explicit compile hint (issue 39): V8 then compiles all its functions
 * while the file streams in, on a background thread, instead of each on its first call on the main
 * thread (about 90 ms of /login's hydration at 4x CPU was that). Everything in the entry runs on load:
 * it is what the first screen needs (the `$initial` group of vite.config.ts). Other engines see a comment.
 *
 * The comment goes in as a post-banner (after minification, which would drop it; part of the chunk's
 * hash), and once vite has put its own first line above it (the `__vite__mapDeps` list of its preload
 * helper, written after the hashes), it is moved back to the top.
 */
export function compileHints(entryName: string): Plugin {
  const hinted = (chunk: { isEntry: boolean; name: string }) => chunk.isEntry && chunk.name === entryName;
  return {
    name: 'frontdoor:compile-hints',
    apply: 'build',
    outputOptions(options) {
      return { ...options, postBanner: (chunk) => (hinted(chunk) ? COMPILE_HINT : '') };
    },
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const chunk of Object.values(bundle)) {
          if (chunk.type !== 'chunk' || !hinted(chunk) || chunk.code.startsWith(`${COMPILE_HINT}\n`)) continue;
          const at = chunk.code.indexOf(`\n${COMPILE_HINT}\n`);
          if (at < 0) this.error(`${chunk.fileName}: V8's compile hint is missing (scripts/compile-hints.ts)`);
          chunk.code = `${COMPILE_HINT}\n${chunk.code.slice(0, at + 1)}${chunk.code.slice(at + COMPILE_HINT.length + 2)}`;
        }
      },
    },
  };
}
