/**
 * Setup of the project `app-slim-rjsf` (vitest.config.ts): the engine's screen tests once more on the
 * browser build's module graph, rjsf's modules swapped by scripts/slim-rjsf.ts. Refuses to run them on
 * the stock graph (rjsf not inlined, so the swap never applied): they would prove nothing about it.
 */
import getDefaultRegistry from '@rjsf/core/lib/getDefaultRegistry.js';

const ArrayField = getDefaultRegistry().fields.ArrayField as { name?: string } | undefined;
if (ArrayField?.name !== 'LazyPart')
  throw new Error("project app-slim-rjsf: rjsf's default registry is not src/engine/form/rjsf-registry.tsx's: the swap did not apply");

export {};
