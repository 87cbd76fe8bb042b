import { orderProperties } from '@rjsf/utils';
import { parseTree } from 'jsonc-parser';
import type { Problem } from '../catalogue/check/types';
import { offsetOfPointer, positionAt } from '../catalogue/check/positions';
import type { ScreenFile } from '../src/engine';
import { st } from './studio-i18n';

/** A problem as the studio lists it: the check's own shape. */
export type StudioProblem = Problem;

/** Line and column of a pointer in the screen file as typed. */
function located(problem: StudioProblem, text: string): StudioProblem {
  const tree = parseTree(text);
  return tree ? { ...problem, ...positionAt(text, offsetOfPointer(tree, problem.pointer)) } : problem;
}

/**
 * What would stop the form engine from rendering a step, found before it renders: rjsf refuses a
 * "ui:order" that leaves out a field without a "*" (or has two "*") and shows its own error and a
 * JSON dump instead of the form. Each becomes a problem with the file and pointer.
 */
export function renderProblems(screen: ScreenFile, text: string): StudioProblem[] {
  const file = `screens/${screen.id}.json`;
  return Object.entries(screen.steps).flatMap(([name, step]) => {
    const order = step.uiSchema?.['ui:order'];
    const properties = Object.keys((step.schema?.properties as Record<string, unknown> | undefined) ?? {});
    if (!Array.isArray(order)) return [];
    try {
      orderProperties(properties, order as string[]);
      return [];
    } catch (error) {
      const missing = properties.filter((p) => !order.includes(p));
      const message =
        missing.length > 0 && !order.includes('*')
          ? st('render.orderMissing', { fields: missing.join('", "'), count: missing.length })
          : st('render.engine', { reason: (error as Error).message });
      return [located({ file, pointer: `/steps/${name}/uiSchema/ui:order`, message }, text)];
    }
  });
}

/** An error the preview hit while rendering a step, as a problem of the step. */
export function renderErrorProblem(screenId: string, step: string, error: string, text: string): StudioProblem {
  return located({ file: `screens/${screenId}.json`, pointer: `/steps/${step}`, message: st('render.engine', { reason: error }) }, text);
}
