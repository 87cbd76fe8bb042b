import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { checkCodeKeys, checkProject, formatProblem, type CheckResult, type PendingTranslation, type Problem } from '../catalogue/check/check';

/**
 * `npm run screens:check`: every check of the build on screens/, locales/ and schemas/, without
 * building. Each problem names file:line:column, the JSON pointer, the reason and, when a name
 * is close to a valid one, a suggestion; the offending line is quoted with a caret under it.
 * Exit code 1 when anything is wrong, so it can gate a commit or CI. Translations other languages
 * lack are listed as pending and do not fail it (the app shows the en-us text meanwhile).
 */
function excerpt(root: string, problem: Problem): string {
  if (problem.line === undefined || !problem.file.endsWith('.json')) return '';
  let text: string;
  try {
    text = readFileSync(join(root, problem.file), 'utf8');
  } catch {
    return '';
  }
  const line = text.split('\n')[problem.line - 1];
  if (line === undefined) return '';
  const number = String(problem.line);
  return `\n    ${number} | ${line}\n    ${' '.repeat(number.length)} | ${' '.repeat(Math.max(0, (problem.column ?? 1) - 1))}^`;
}

/** Every problem of the catalogue (and of i18n keys written in code), and the pending translations. */
export function checkCatalogue(rootDir = process.cwd()): CheckResult {
  const root = resolve(rootDir);
  const result = checkProject({ root });
  result.problems.push(...checkCodeKeys(root, result.project));
  return result;
}

export function checkScreens(rootDir = process.cwd()): Problem[] {
  return checkCatalogue(rootDir).problems;
}

/** "12 texts wait for a translation: login.fields.nickname (15 languages: da-da, de-de, ...)" */
export function formatPending(pending: PendingTranslation[]): string[] {
  if (pending.length === 0) return [];
  const lines = pending.map((p) => {
    const where = p.line !== undefined ? `${p.file}:${p.line}:${p.column ?? 1}` : p.file;
    const shown = p.languages.slice(0, 4).join(', ');
    return `  ${p.key} (${where}): not yet in ${p.languages.length} language${p.languages.length > 1 ? 's' : ''}: ${shown}${p.languages.length > 4 ? ', ...' : ''}`;
  });
  return [`${pending.length} text${pending.length > 1 ? 's' : ''} pending translation (the app shows the en-us text there until then):`, ...lines];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = resolve(process.argv[2] ?? process.cwd());
  const { project, problems, pending } = checkCatalogue(root);
  for (const line of formatPending(pending)) console.log(line);
  if (problems.length === 0) {
    console.log(
      `screens ok: ${project.screens.length} screens, ${Object.keys(project.locales).length} locale(s), ${Object.keys(project.operations).length} operations${pending.length ? `; ${pending.length} pending translation(s)` : ''}`,
    );
  } else {
    for (const problem of problems) console.error(`${formatProblem(problem)}${excerpt(root, problem)}`);
    console.error(`\n${problems.length} problem(s) in the screen catalogue.`);
    process.exit(1);
  }
}
