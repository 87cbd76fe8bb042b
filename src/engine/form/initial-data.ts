import type { StepSpec } from '../types';
import { resolveMapping, type Scope } from '../../../catalogue/language/scope';

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The data a step's form starts with: the schema's top-level `default`s, overlaid by the step's
 * `initialData` mapping (as rjsf fills them). The screen evaluates its '/field' conditions on it
 * before the form has rendered, so the first paint already shows the right submit and blocks
 * (MFA setup's Continue for the preselected method, say); conditions read top-level fields only.
 */
export function initialFormData(step: StepSpec, scope: Scope): Record<string, unknown> {
  const properties = isObject(step.schema?.properties) ? step.schema.properties : {};
  const defaults: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    if (isObject(property) && property.default !== undefined) defaults[name] = property.default;
  }
  return { ...defaults, ...resolveMapping(step.initialData, scope) };
}
