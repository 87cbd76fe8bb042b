import { SHARED_OUTCOMES_FILE, type Project } from './types';

/**
 * What a change of one catalogue file can affect, for checks that run many times on one clean
 * catalogue (the checker's mutation test changes one file at a time): the screen itself, the files
 * that name one of its routes (they lead to it, hand it values), and the screens whose routes it
 * names (it leads to them). checkProject's `only` then checks those screens and their navigations,
 * and takes the others as the clean check left them, so one mutation costs what its neighbours cost,
 * not what the whole catalogue costs. A file that is no screen (the shared outcomes, a locale file,
 * a schema) can affect every screen: undefined, check everything.
 */
export function reachOf(project: Pick<Project, 'screens' | 'outcomes'>, file: string): Set<string> | undefined {
  const entry = project.screens.find((s) => s.file === file);
  if (!entry) return undefined;
  const shared = `screens/${SHARED_OUTCOMES_FILE}`;
  const texts = new Map<string, string>([
    ...project.screens.map((s) => [s.file, JSON.stringify(s.screen)] as const),
    [shared, JSON.stringify(project.outcomes)],
  ]);
  // A route is named by its path up to its first parameter ('/resetPassword/:code?' by "/resetPassword/), quoted.
  const named = (text: string, path: string) => text.includes(JSON.stringify(path.split(':')[0] ?? path).slice(0, -1));
  const routesOf = (screen: (typeof project.screens)[number]) => (screen.screen.routes ?? []).map((r) => r.path);
  const own = texts.get(file) ?? '';
  const reach = new Set([file]);
  for (const [other, text] of texts) if (routesOf(entry).some((path) => named(text, path))) reach.add(other);
  for (const other of project.screens) if (routesOf(other).some((path) => named(own, path))) reach.add(other.file);
  return reach;
}
