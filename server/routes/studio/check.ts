import { checkProject, knownResultCodes, type Problem } from '../../../catalogue/check/check.js';
import { expandScreen } from '../../../catalogue/check/lists.js';
import { withEnglish } from '../../../catalogue/check/pending.js';
import { jsonSyntaxError } from '../../../catalogue/check/positions.js';
import type { ScreenFile } from '../../../catalogue/language/types.js';
import type { CheckedEdit } from '../../../catalogue/studio-contract.js';
import { editedFiles, type Edit } from './files.js';

/** The first syntax error of each file given, as a problem with its position. */
function syntaxProblems(files: Record<string, string>): Problem[] {
  return Object.entries(files).flatMap(([file, text]) => {
    const error = jsonSyntaxError(text);
    return error ? [{ file, pointer: '', message: `invalid JSON: ${error.message}`, line: error.line, column: error.column }] : [];
  });
}

/** The result codes of the operations, and of each call whose result sits elsewhere (a probe's /authState). */
function resultCodes(project: Parameters<typeof knownResultCodes>[0], screen: ScreenFile | undefined): Record<string, string[]> {
  const codes: Record<string, string[]> = {};
  for (const name of Object.keys(project.operations)) codes[name] = knownResultCodes(project, name);
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    const n = node as Record<string, unknown>;
    if (typeof n.operation === 'string' && typeof n.resultFrom === 'string')
      codes[`${n.operation}${n.resultFrom}`] = knownResultCodes(project, n.operation, n.resultFrom);
    for (const [key, value] of Object.entries(n)) if (key !== 'schema' && key !== 'uiSchema') visit(value);
  };
  visit(screen);
  return codes;
}

/**
 * The catalogue check (catalogue/check, the build's own) on the files as they would be after the
 * edit: the edited texts stand in for the files on disk, nothing is written. One syntax error is one
 * problem: the rest of the catalogue is not checked against a file that did not parse (every route
 * to it would be reported missing); the studio keeps its last good view.
 */
export function checkEdit(root: string, edit: Edit): CheckedEdit {
  return checkFiles(root, editedFiles(edit), edit.screenId);
}

/** The same check with any catalogue files in place of those on disk (a draft, a version), and the screen it resolves. */
export function checkFiles(root: string, files: Record<string, string>, screenId: string): CheckedEdit {
  const syntax = syntaxProblems(files);
  if (syntax.length > 0) return { problems: syntax, pending: [], screen: null, routes: [], locales: {}, resultCodes: {} };
  const { project, problems, pending } = checkProject({ root }, { files });
  const entry = project.screens.find((s) => s.screen.id === screenId);
  return {
    problems,
    pending: withEnglish(project, pending),
    // As the build gives it to the browser: $refs inlined, business lists expanded.
    screen: entry ? expandScreen(entry.screen, entry.schemas, project.lists) : null,
    routes: project.screens.flatMap((s) => (s.screen.routes ?? []).map((r) => ({ path: r.path, screenId: s.screen.id }))),
    locales: project.locales,
    outcomes: project.outcomes,
    resultCodes: resultCodes(project, entry?.screen),
  };
}
