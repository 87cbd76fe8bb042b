import { useEffect, useRef, useState } from 'react';
import type { EngineHost } from '../host';
import { holds } from '../../../catalogue/language/conditions';
import { runCall, runOutcome } from '../../../catalogue/language/interpreter';
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
 * A malformed state parameter's outcome; else the query's message, the on-enter actions firstState did
 * not apply, in order, until one leaves the page, and the timers whose condition holds (the message and
 * the timers from ./enter-extras.ts, loaded when the screen has them). `stops` collects what unmounting stops.
 */
async function enter({ screen, entry, start, host, runner, unmounted }: Entering, stops: Array<() => void>): Promise<void> {
  if (screen.stateParam && !start.stateParam) return runOutcome(runner, screen.stateParam.otherwise, runner.formData());
  const { message } = start.query;
  const extras = message !== undefined || screen.timers?.length ? import('./enter-extras') : undefined;
  if (message !== undefined) (await extras)?.showQueryMessage(screen, entry, message, host, runner);
  for (const action of (screen.onEnter ?? []).slice(start.entered)) {
    if (unmounted.signal.aborted || !holds(action.when, runner.scope())) continue;
    const before = window.location.href;
    if (action.outcome) await runOutcome(runner, action.outcome, runner.formData());
    else if (action.operation) await runCall(runner, { ...action, operation: action.operation }, runner.formData(), true);
    if (window.location.href !== before) return;
  }
  if (!unmounted.signal.aborted) (await extras)?.startTimers(screen, start, runner, stops);
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
