import { join, resolve } from 'node:path';
import { checkCodeKeys, checkProject, formatProblem, type Project } from '../catalogue/check/check';
import { writeListsAndNames, writeLocales } from './generate/data';
import { writeOperations } from './generate/operations';
import { output } from './generate/output';
import { writeScreens } from './generate/screens';

/**
 * Build-time compilation: checks the catalogue, then writes src/generated/ — screen modules with their
 * precompiled rjsf validators and the route table (generate/screens.ts), the business lists, the hosts'
 * names and the merged locales (generate/data.ts), the operation table with precompiled response
 * validators (one lazy module each) and TypeScript types of the API (generate/operations.ts). The
 * browser never compiles a schema. `npm run generate` (scripts/generate.ts), the build and the studio's
 * publish run it.
 */
export class CatalogueError extends Error {}

/** The catalogue checked: its problems stop the build; texts missing only in some languages are pending translations (they fall back to en-us). */
function checkedProject(root: string): Project {
  const { project, problems: found, pending } = checkProject({ root });
  const problems = [...found, ...checkCodeKeys(root, project)];
  if (pending.length > 0)
    console.log(`${pending.length} text(s) pending translation (visitors in those languages see the English text): ${pending.map((p) => p.key).join(', ')}`);
  if (problems.length > 0) {
    throw new CatalogueError(`The screen catalogue has ${problems.length} problem(s):\n${problems.map((p) => `  ${formatProblem(p)}`).join('\n')}`);
  }
  return project;
}

export async function generate(rootDir = process.cwd()): Promise<Project> {
  const root = resolve(rootDir);
  const project = checkedProject(root);
  const dir = join(root, 'src/generated');
  const out = output();
  writeScreens(out, dir, project);
  writeListsAndNames(out, dir, project);
  writeLocales(out, dir, project);
  await writeOperations(out, dir, root, project);
  out.pruneStale(dir);
  return project;
}

/** The one line a run says: what the catalogue holds. */
export function summary(project: Project): string {
  return `catalogue ok: ${project.screens.length} screens, ${Object.keys(project.operations).length} operations, ${Object.keys(project.locales).length} locale(s)`;
}
