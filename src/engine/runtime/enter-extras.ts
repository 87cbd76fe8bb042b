import type { EngineHost } from '../host';
import { holds } from '../../../catalogue/language/conditions';
import { runOutcome } from '../../../catalogue/language/interpreter';
import { resolveMapping } from '../../../catalogue/language/scope';
import type { ScreenEntry, ScreenModule } from '../types';
import type { Runner } from './runner';
import type { ScreenStart } from './start';

/**
 * What only some screens do on entering, loaded when one does (not part of the first load): the
 * query's message (?message=…, shown, then taken out of the address) and the timers.
 */

export function showQueryMessage(screen: ScreenModule['screen'], entry: ScreenEntry, message: string, host: EngineHost, runner: Runner): void {
  const spec = screen.queryMessages?.[message];
  if (spec)
    host.showMessage({ key: spec.key, values: resolveMapping(spec.values, runner.scope()), kind: spec.kind ?? 'info', permanent: spec.permanent === true });
  const rest = new URLSearchParams(entry.search);
  rest.delete('message');
  const search = rest.toString();
  host.navigate(`${entry.pathname}${search ? `?${search}` : ''}`, { replace: true, state: entry.state as Record<string, unknown> | undefined });
}

/** The timers whose condition holds: each outcome after its delay, a countdown ticking every second meanwhile. `stops` collects what unmounting stops. */
export function startTimers(screen: ScreenModule['screen'], start: ScreenStart, runner: Runner, stops: Array<() => void>): void {
  for (const timer of screen.timers ?? []) {
    if (!holds(timer.when, runner.scope())) continue;
    const started = Date.now();
    const { countdown } = timer;
    // Its condition is read again as it runs: a button that makes it false (e.g. "Stay on this page"
    // setting a context flag the timer's `when` negates) turns the time limit off (WCAG 2.2.1).
    if (countdown) {
      const tick = () =>
        holds(timer.when, runner.scope()) &&
        start.store.dispatch({ type: 'assigned', values: { [countdown]: Math.max(0, Math.ceil((timer.afterMs - (Date.now() - started)) / 1000)) } });
      tick();
      const interval = setInterval(tick, 1000);
      stops.push(() => clearInterval(interval));
    }
    const timeout = setTimeout(() => void (holds(timer.when, runner.scope()) && runOutcome(runner, timer.outcome, runner.formData())), timer.afterMs);
    stops.push(() => clearTimeout(timeout));
  }
}
