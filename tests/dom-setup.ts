/**
 * Setup of the `app` project's files (vitest.config.ts). In a jsdom file, testing-library's findBy* and
 * waitFor wait up to 5 s instead of 1 s: a first render loads a screen's widgets and texts, which takes
 * seconds on a loaded two-core machine. These are waits for an outcome, not timings; a node file skips this.
 */
if (typeof document !== 'undefined') {
  const { configure } = await import('@testing-library/react');
  configure({ asyncUtilTimeout: 5_000 });
}

export {};
