import type { AllOfMerge } from '../types';

/**
 * rjsf's merge of `allOf` (@x0k/json-schema-merge, about 3.6 kB brotli) for the browser build:
 * vite.config.ts puts this module in place of @rjsf/utils' own shallowAllOfMerge, so a form without
 * `allOf` (the sign-in's) does not carry it. A screen whose forms have `allOf` brings the real merge
 * in its chunk (scripts/generate.ts: ScreenModule.rjsf.mergeAllOf), which FormStep hands here before
 * the form renders. vitest and the studio run rjsf's own module.
 */
let merge: AllOfMerge | undefined;

export function provideAllOfMerge(real: AllOfMerge): void {
  merge ??= real;
}

const shallowAllOfMerge: AllOfMerge = (schema) => {
  if (!merge) throw new Error('A schema with allOf in a screen that did not bring the allOf merge (scripts/generate.ts adds it to screens with allOf)');
  return merge(schema);
};
export default shallowAllOfMerge;
