import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

/**
 * The dev-only screen studio (served at /dev/studio by the reference server outside production).
 * A build of its own, not an entry of the app's build: the visitor bundle stays byte for byte what
 * it is without the studio, and shares no chunk with CodeMirror or the run-time schema compiler.
 */
export default defineConfig({
  root: resolve(import.meta.dirname, 'studio'),
  base: '/dev/studio/',
  plugins: [react()],
  build: {
    outDir: resolve(import.meta.dirname, 'dist/studio'),
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 4096,
  },
});
