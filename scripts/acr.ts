import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generate, PATHS, resultsSource } from './acr/generate';
import { cliOptions } from './cli-args';

/**
 * `npm run acr`: the Accessibility Conformance Report (VPAT 2.5 layout: WCAG 2.2 A and AA, Revised
 * Section 508, EN 301 549) as build/acr/report.html and build/acr/report.md, from the results of the
 * browser suite's accessibility walk and the hand-kept review of docs/acr/manual.json
 * (docs/accessibility-conformance.md). The results: `--results FILE`, else build/a11y-results.json
 * (written by tests/e2e/a11y.spec.ts, e.g. in `npm test`), else the run kept in docs/acr/last-run.json;
 * the report and this script say which. `--keep` copies the fresh run to docs/acr/last-run.json and
 * its report to docs/acr/report.md, to commit. Exits 1 when a criterion is left unanswered.
 */
const options = cliOptions({ numbers: {}, strings: { results: '' }, flags: ['keep'] });
const root = process.cwd();
const source = resultsSource(root, options.results || undefined);
if (options.keep && source !== PATHS.fresh) {
  console.error(`--keep keeps a fresh run: run the browser suite first (npm run test:e2e -- tests/e2e/a11y.spec.ts writes ${PATHS.fresh})`);
  process.exit(2);
}
const { report, markdown, html } = generate(root, source);
console.log(
  `acr: evidence from ${source}: run of ${report.run.at}${report.run.commit ? ` at commit ${report.run.commit.slice(0, 12)}` : ''}, ${report.states.length} states`,
);
if (report.unanswered.length > 0) {
  console.error(`acr: unanswered (add a check or an entry in ${PATHS.manual}):\n  ${report.unanswered.join('\n  ')}`);
  process.exit(1);
}
mkdirSync(PATHS.out, { recursive: true });
writeFileSync(join(PATHS.out, 'report.md'), markdown);
writeFileSync(join(PATHS.out, 'report.html'), html);
const count = (level: string) => report.wcag.filter((row) => row.conformance === level).length;
console.log(
  `acr: ${report.wcag.length} WCAG 2.2 criteria (${count('Supports')} supported, ${count('Partially Supports')} partially, ${count('Does Not Support')} not, ${count('Not Applicable')} not applicable) -> ${PATHS.out}/report.html, report.md`,
);
if (options.keep) {
  copyFileSync(join(root, PATHS.fresh), join(root, PATHS.kept));
  // Made again from the kept copy, so that it names the file it comes from in the repository.
  writeFileSync(join(root, PATHS.keptReport), generate(root, PATHS.kept).markdown);
  console.log(`acr: kept the run in ${PATHS.kept} and its report in ${PATHS.keptReport}`);
}
