import type { Registry } from '@rjsf/utils';
import type { ScreenApi } from '../src/engine';

/** The hosting screen's API, which the form step hands to rjsf as formContext (rjsf 6: registry.formContext). */
export function screenApiOf(registry: Registry | undefined): ScreenApi | undefined {
  const api = registry?.formContext as Partial<ScreenApi> | undefined;
  return api && typeof api.submit === 'function' && typeof api.ctx === 'object' ? (api as ScreenApi) : undefined;
}
