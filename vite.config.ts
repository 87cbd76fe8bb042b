import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  base: '/',
  build: {
    outDir: 'dist/app',
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    assetsInlineLimit: 0,
  },
  server: {
    proxy: {
      '/ws': 'http://127.0.0.1:8080',
      '/account': 'http://127.0.0.1:8080',
      '/expired-account': 'http://127.0.0.1:8080',
      '/branding': 'http://127.0.0.1:8080',
      '/dev': 'http://127.0.0.1:8080',
    },
  },
});
