import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { checkCodeKeys, checkProject, formatProblem, type Problem } from './catalogue/check';

/**
 * `npm run screens:check`: every check of the build on screens/, locales/ and schemas/, without
 * building. Each problem names file:line:column, the JSON pointer, the reason and, when a name
 * is close to a valid one, a suggestion; the offending line is quoted with a caret under it.
 * Exit code 1 when anything is wrong, so it can gate a commit or CI.
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

export function checkScreens(rootDir = process.cwd()): Problem[] {
  const root = resolve(rootDir);
  const { project, problems } = checkProject({ root });
  problems.push(...checkCodeKeys(root, project.locales, undefined, project.brokenLocales));
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = resolve(process.argv[2] ?? process.cwd());
  const problems = checkScreens(root);
  if (problems.length === 0) {
    const { project } = checkProject({ root });
    console.log(`screens ok: ${project.screens.length} screens, ${Object.keys(project.locales).length} locale(s), ${Object.keys(project.operations).length} operations`);
  } else {
    for (const problem of problems) console.error(`${formatProblem(problem)}${excerpt(root, problem)}`);
    console.error(`\n${problems.length} problem(s) in the screen catalogue.`);
    process.exit(1);
  }
}
