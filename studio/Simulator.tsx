import { Button } from '../src/ui';
import { useMemo, useState } from 'react';
import type { OutcomeSource } from '../catalogue/language/outcome-lookup';
import { follow, planFor, type TransitionHandlers } from '../catalogue/language/interpreter';
import type { OutcomePlan, CallSpec, ScreenFile, SharedOutcomes, Scope } from '../src/engine';
import type { CatalogueRoute } from '../catalogue/studio-contract';
import type { PreviewFlags } from './Preview';
import { bodyFor } from './stub-fetch';
import { st } from './studio-i18n';
import { Choice } from './recipes/Control';
import { routeMatches } from '../catalogue/language/routes';
import { siteFlags } from '../src/app/studio-entry';

const OTHER = 'ANY_OTHER_CODE';

export interface SimCall {
  id: string;
  kind: 'submit' | 'probe' | 'button' | 'enter';
  label: string;
  call: CallSpec;
}

/** Every call the step (and the screen's on-enter list) can make. */
export function callsOf(screen: ScreenFile, stepName: string): SimCall[] {
  const calls: SimCall[] = [];
  const step = screen.steps[stepName];
  (screen.onEnter ?? []).forEach((action, i) => {
    if (action.operation)
      calls.push({ id: `enter-${i}`, kind: 'enter', label: st('studio.callEnter', { operation: action.operation }), call: action as CallSpec });
  });
  if (!step) return calls;
  const submits = step.submit === undefined ? [] : Array.isArray(step.submit) ? step.submit : [step.submit];
  submits.forEach((submit, i) => {
    // A submit without an operation runs its outcome directly: there is no result code to simulate.
    if (submit.operation === undefined) return;
    const operation = submit.operation;
    const when = submit.when === undefined ? '' : ` [${([] as string[]).concat(submit.when).join(' & ')}]`;
    calls.push({ id: `submit-${i}`, kind: 'submit', label: `${st('studio.callSubmit', { operation })}${when}`, call: { ...submit, operation } });
  });
  (step.probes ?? []).forEach((probe, i) =>
    calls.push({ id: `probe-${i}`, kind: 'probe', label: st('studio.callProbe', { field: probe.field, operation: probe.operation }), call: probe }),
  );
  for (const place of ['before', 'after'] as const) {
    (step.blocks?.[place] ?? []).forEach((block, i) => {
      if (block.call)
        calls.push({ id: `block-${place}-${i}`, kind: 'button', label: st('studio.callButton', { operation: block.call.operation }), call: block.call });
    });
  }
  return calls;
}

/** Who handled a code, in the simulator's words (the engine's outcomeFor decides). */
const HANDLED_BY: Record<OutcomeSource, string> = {
  own: 'studio.handledOwn',
  block: 'studio.handledBlock',
  default: 'studio.handledDefault',
  star: 'studio.handledStar',
  unhandled: 'studio.handledNone',
};

/** Where a plan leads, in the simulator's words: the interpreter's transitions, followed without running them. */
function describe(routes: CatalogueRoute[]): TransitionHandlers<string> {
  return {
    step: (step) => st('studio.toStep', { step }),
    navigate: ({ path }) => {
      const target = routes.find((r) => routeMatches(r.path, path));
      return target ? st('studio.toRoute', { path, screen: target.screenId }) : st('studio.toRouteUnknown', { path });
    },
    authenticate: () => st('studio.authenticate'),
    redirect: () => st('studio.redirect'),
    resubmit: () => st('studio.resubmit'),
    stay: () => st('studio.stays'),
  };
}

export function leadsTo(plan: OutcomePlan, routes: CatalogueRoute[]): string {
  return follow(plan, describe(routes));
}

/** Whether running the plan would leave the preview (a sign-in's end, a redirect). */
const LEAVES: TransitionHandlers<boolean> = {
  step: () => false,
  navigate: () => false,
  authenticate: () => true,
  redirect: () => true,
  resubmit: () => false,
  stay: () => false,
};

export const leavesApp = (plan: OutcomePlan) => follow(plan, LEAVES);

interface SimulatorProps {
  screen: ScreenFile;
  step: string;
  resultCodes: Record<string, string[]>;
  routes: CatalogueRoute[];
  flags: PreviewFlags;
  outcomes: SharedOutcomes;
  /** The preview's translation of a key (the effects read as visitors would see them). */
  translate(key: string, values?: Record<string, unknown>): string;
  onRun(call: SimCall, code: string): void;
}

interface SimRow {
  code: string;
  /** Who handled it, in words. */
  by: string;
  plan: OutcomePlan;
  /** What it shows, translated as visitors would read it. */
  shows: string[];
}

type SimContext = Pick<SimulatorProps, 'screen' | 'resultCodes' | 'flags' | 'outcomes' | 'translate'>;

/** Each result code the call can answer (the contract's, its table's, any other): the outcome that handles it and its plan. */
function simulate(current: SimCall, { screen, resultCodes, flags, outcomes, translate }: SimContext): SimRow[] {
  const { call } = current;
  const known = resultCodes[`${call.operation}${call.resultFrom ?? ''}`] ?? resultCodes[call.operation] ?? [];
  const codes = [...new Set([...known, ...Object.keys(call.outcomes ?? {}).filter((c) => c !== '*')]), OTHER];
  const scope: Scope = {
    form: {},
    ctx: { ...screen.context },
    params: {},
    query: {},
    env: { origin: window.location.origin, brandingHostname: window.location.hostname },
    flags: siteFlags(flags),
  };
  return codes.map((code) => {
    const result = { code, data: bodyFor({ code, resultFrom: call.resultFrom }) };
    const { plan, from } = planFor(call, result, outcomes, scope, current.kind === 'probe' || current.kind === 'enter');
    const shows = [
      plan.message ? translate(plan.message.key, plan.message.values) : undefined,
      plan.error ? translate(plan.error.key, plan.error.values) : undefined,
      plan.warning ? translate(plan.warning.key, plan.warning.values) : undefined,
      ...Object.entries(plan.fieldErrors ?? {}).map(([field, text]) => `${field}: ${translate(text.key, text.values)}`),
    ].filter((shown): shown is string => shown !== undefined);
    return { code, by: st(HANDLED_BY[from]), plan, shows };
  });
}

interface SimTableProps {
  rows: SimRow[];
  routes: CatalogueRoute[];
  planShown: string | undefined;
  onShowPlan(code: string | undefined): void;
  onRun(code: string): void;
}

function SimTable({ rows, routes, planShown, onShowPlan, onRun }: SimTableProps) {
  return (
    <table>
      <thead>
        <tr>
          <th>{st('studio.code')}</th>
          <th>{st('studio.handledBy')}</th>
          <th>{st('studio.leadsTo')}</th>
          <th>{st('studio.effects')}</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {rows.map(({ code, by, plan, shows }) => (
          <tr key={code} data-code={code}>
            <td>
              <button type="button" className="studio__link" onClick={() => onShowPlan(planShown === code ? undefined : code)}>
                <code>{code === OTHER ? st('studio.otherCode') : code}</code>
              </button>
            </td>
            <td>{by}</td>
            <td data-testid="studio-leads-to">{leadsTo(plan, routes)}</td>
            <td>{shows.join(' · ')}</td>
            <td>
              {leavesApp(plan) ? (
                <small>{st('studio.runLeaves')}</small>
              ) : (
                <Button variant="secondary" onClick={() => onRun(code === OTHER ? 'STUDIO_OTHER_CODE' : code)}>
                  {st('studio.run')}
                </Button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Each result code of each call: which outcome handles it, its OutcomePlan and where it leads. */
export function Simulator(props: SimulatorProps) {
  const { screen, step, routes, onRun } = props;
  const calls = useMemo(() => callsOf(screen, step), [screen, step]);
  const [selected, setSelected] = useState(0);
  const [planShown, setPlanShown] = useState<string>();
  const current = calls[Math.min(selected, calls.length - 1)];
  if (!current) return <p>{st('studio.noCalls')}</p>;
  const rows = simulate(current, props);

  return (
    <div className="studio__sim" data-testid="studio-simulator">
      <Choice
        label={st('studio.call')}
        value={String(selected)}
        options={calls.map((c, i) => ({ value: String(i), label: c.label }))}
        onChange={(value) => setSelected(Number(value))}
        testId="studio-call"
      />
      <SimTable rows={rows} routes={routes} planShown={planShown} onShowPlan={setPlanShown} onRun={(code) => onRun(current, code)} />
      {planShown ? (
        <>
          <h2>
            {st('studio.plan')}: {planShown}
          </h2>
          <pre className="studio__plan" data-testid="studio-plan">
            {JSON.stringify(rows.find((r) => r.code === planShown)?.plan, null, 2)}
          </pre>
        </>
      ) : null}
    </div>
  );
}
