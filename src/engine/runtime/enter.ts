import { useEffect, useRef, useState } from 'react';
import type { EngineHost } from '../host';
import { holds } from '../../../catalogue/language/conditions';
import { runCall, runOutcome } from '../../../catalogue/language/interpreter';
import { resolveMapping } from '../../../catalogue/language/scope';
import type { ScreenEntry, ScreenModule } from '../types';
import type { Runner } from './runner';
import type { ScreenStart } from './start';

/** What entering reads: the screen as it was opened (entering happens once per mounted screen; the route key remounts it for a new URL). */
export interface Entering {
  screen: ScreenModule['screen'];
  entry: ScreenEntry;
  start: ScreenStart;
  host: EngineHost;
  runner: Runner;
  unmounted: AbortController;
}

/**
 * A malformed state parameter's outcome; else the query's message (shown, then taken out of the
 * address), the on-enter actions firstState did not apply, in order, until one leaves the page, and
 * the timers whose condition holds (a countdown ticks every second). `stops` collects what unmounting stops.
 */
async function enter({ screen, entry, start, host, runner, unmounted }: Entering, stops: Array<() => void>): Promise<void> {
  const outcome = (then: Parameters<typeof runOutcome>[1]) => runOutcome(runner, then, runner.formData());
  if (screen.stateParam && !start.stateParam) return outcome(screen.stateParam.otherwise);
  const { message } = start.query;
  if (message !== undefined) {
    const spec = screen.queryMessages?.[message];
    if (spec)
      host.showMessage({ key: spec.key, values: resolveMapping(spec.values, runner.scope()), kind: spec.kind ?? 'info', permanent: spec.permanent === true });
    const rest = new URLSearchParams(entry.search);
    rest.delete('message');
    const search = rest.toString();
    host.navigate(`${entry.pathname}${search ? `?${search}` : ''}`, { replace: true, state: entry.state as Record<string, unknown> | undefined });
  }
  for (const action of (screen.onEnter ?? []).slice(start.entered)) {
    if (unmounted.signal.aborted || !holds(action.when, runner.scope())) continue;
    const before = window.location.href;
    if (action.outcome) await outcome(action.outcome);
    else if (action.operation) await runCall(runner, { ...action, operation: action.operation }, runner.formData(), true);
    if (window.location.href !== before) return;
  }
  for (const timer of screen.timers ?? []) {
    if (unmounted.signal.aborted || !holds(timer.when, runner.scope())) continue;
    const started = Date.now();
    const { countdown } = timer;
    if (countdown) {
      const tick = () =>
        start.store.dispatch({ type: 'assigned', values: { [countdown]: Math.max(0, Math.ceil((timer.afterMs - (Date.now() - started)) / 1000)) } });
      tick();
      const interval = setInterval(tick, 1000);
      stops.push(() => clearInterval(interval));
    }
    const timeout = setTimeout(() => void outcome(timer.outcome), timer.afterMs);
    stops.push(() => clearTimeout(timeout));
  }
}

/** On enter, once per mounted screen (see enter); unmounting aborts what is in flight. */
export function useEnter(opened: Entering): void {
  // The screen as it was opened: later renders do not enter it again.
  const [entering] = useState(opened);
  const entered = useRef(false);
  useEffect(() => {
    if (entered.current) return;
    entered.current = true;
    const stops: Array<() => void> = [];
    void enter(entering, stops);
    return () => stops.forEach((stop) => stop());
  }, [entering]);
  useEffect(() => () => entering.unmounted.abort(), [entering]);
}
