import { useEffect, useRef, useState } from 'react';
import type { EngineHost } from '../host';
import { holds } from '../../../catalogue/language/conditions';
import { resolveMapping } from '../../../catalogue/language/scope';
import type { ScreenEntry, ScreenModule, TimerSpec } from '../types';
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

/** The query's message (?message=…): shown, then taken out of the address. */
function showQueryMessage({ screen, entry, start, host, runner }: Entering): void {
  const name = start.query.message;
  if (name === undefined) return;
  const spec = screen.queryMessages?.[name];
  if (spec)
    host.showMessage({ key: spec.key, values: resolveMapping(spec.values, runner.scopeFor()), kind: spec.kind ?? 'info', permanent: spec.permanent === true });
  const rest = new URLSearchParams(entry.search);
  rest.delete('message');
  const search = rest.toString();
  host.navigate(`${entry.pathname}${search ? `?${search}` : ''}`, { replace: true, state: entry.state as Record<string, unknown> | undefined });
}

/** The on-enter actions firstState did not apply, in order, until one leaves the page. Whether the screen is still there. */
async function runEnterActions({ screen, start, runner, unmounted }: Entering): Promise<boolean> {
  for (const action of (screen.onEnter ?? []).slice(start.entered)) {
    if (unmounted.signal.aborted || !holds(action.when, runner.scopeFor())) continue;
    const before = window.location.href;
    if (action.outcome) await runner.runOutcome(action.outcome);
    else if (action.operation) await runner.runCall({ ...action, operation: action.operation }, runner.formData(), true);
    if (window.location.href !== before) return false;
  }
  return true;
}

/** A timer whose condition holds: its outcome after its delay, and its countdown every second meanwhile. */
function startTimer(timer: TimerSpec, { start, runner }: Entering, stops: Array<() => void>): void {
  if (!holds(timer.when, runner.scopeFor())) return;
  const started = Date.now();
  const { countdown } = timer;
  if (countdown) {
    const tick = () =>
      start.store.dispatch({ type: 'assigned', values: { [countdown]: Math.max(0, Math.ceil((timer.afterMs - (Date.now() - started)) / 1000)) } });
    tick();
    const interval = setInterval(tick, 1000);
    stops.push(() => clearInterval(interval));
  }
  const timeout = setTimeout(() => void runner.runOutcome(timer.outcome), timer.afterMs);
  stops.push(() => clearTimeout(timeout));
}

async function enter(entering: Entering, stops: Array<() => void>): Promise<void> {
  const { screen, start, runner } = entering;
  if (screen.stateParam && !start.stateParam) {
    await runner.runOutcome(screen.stateParam.otherwise);
    return;
  }
  showQueryMessage(entering);
  if (!(await runEnterActions(entering)) || entering.unmounted.signal.aborted) return;
  for (const timer of screen.timers ?? []) startTimer(timer, entering, stops);
}

/** On enter, once per mounted screen: a malformed state parameter, the query message, on-enter calls (after those firstState applied) and timers. */
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
