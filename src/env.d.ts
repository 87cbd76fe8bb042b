/// <reference types="vite/client" />

/** Precompiled validator modules written by scripts/generate.ts (CommonJS: ajv standalone output). */
declare module '*.cjs' {
  const exports: Record<string, unknown>;
  export = exports;
}
