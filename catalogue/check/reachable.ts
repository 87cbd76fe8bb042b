import type { ScreenFile } from '../language/types';
import type { Report } from './types';

/** Step names an outcome, call or block list can lead to ('step' verbs anywhere inside). */
function stepTargets(node: unknown, out: Set<string>): Set<string> {
  if (Array.isArray(node)) node.forEach((item) => stepTargets(item, out));
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
      // A form's JSON Schema and UI schema hold no outcomes; a field may well be named "step".
      if (key === 'schema' || key === 'uiSchema') continue;
      if (key === 'step' && typeof value === 'string') out.add(value);
      else stepTargets(value, out);
    }
  }
  return out;
}

/** Every step can be reached from initialStep (screen-level outcomes may lead to any step at any time). */
export function checkReachable(screen: ScreenFile, report: Report): void {
  if (!screen.steps[screen.initialStep]) return;
  const global = stepTargets([screen.stateParam?.otherwise, screen.onEnter, screen.timers], new Set());
  const seen = new Set<string>([screen.initialStep, ...global]);
  const queue = [...seen];
  while (queue.length > 0) {
    const name = queue.shift() ?? '';
    for (const next of stepTargets(screen.steps[name] ?? {}, new Set())) {
      if (!seen.has(next) && screen.steps[next]) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  for (const name of Object.keys(screen.steps)) {
    if (!seen.has(name)) report(`/steps/${name}`, `step "${name}" cannot be reached from initialStep "${screen.initialStep}": no outcome leads to it`);
  }
}
