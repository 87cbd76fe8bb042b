import { Button } from '../src/ui';
import { useMemo, useState } from 'react';
import { outcomeFor, type OutcomeSource } from '../catalogue/language/outcome-lookup';
import { planOutcome, type OutcomePlan, type CallSpec, type ScreenFile, type SharedOutcomes, type Scope } from '../src/engine';
import type { CatalogueRoute } from '../catalogue/studio-contract';
import type { PreviewFlags } from './Preview';
import { bodyFor } from './stub-fetch';
import { st } from './studio-i18n';
import { Choice } from './recipes/Control';
import { routeMatches } from '../catalogue/language/routes';
import { siteFlags } from '../src/app/host-base';

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

export function leadsTo(plan: OutcomePlan, routes: CatalogueRoute[]): string {
  const t = plan.transition;
  if (!t) return st('studio.stays');
  switch (t.kind) {
    case 'step':
      return st('studio.toStep', { step: t.step });
    case 'navigate': {
      const target = routes.find((r) => routeMatches(r.path, t.path));
      return target ? st('studio.toRoute', { path: t.path, screen: target.screenId }) : st('studio.toRouteUnknown', { path: t.path });
    }
    case 'authenticate':
      return st('studio.authenticate');
    case 'redirect':
      return st('studio.redirect');
    case 'resubmit':
      return st('studio.resubmit');
  }
}

export const leavesApp = (plan: OutcomePlan) => plan.transition?.kind === 'authenticate' || plan.transition?.kind === 'redirect';

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

/** Each result code of each call: which outcome handles it, its OutcomePlan and where it leads. */
export function Simulator({ screen, step, resultCodes, routes, flags, outcomes, translate, onRun }: SimulatorProps) {
  const calls = useMemo(() => callsOf(screen, step), [screen, step]);
  const [selected, setSelected] = useState(0);
  const [planShown, setPlanShown] = useState<string>();
  const current = calls[Math.min(selected, calls.length - 1)];
  if (!current) return <p>{st('studio.noCalls')}</p>;

  const { call } = current;
  const known = resultCodes[`${call.operation}${call.resultFrom ?? ''}`] ?? resultCodes[call.operation] ?? [];
  const codes = [...new Set([...known, ...Object.keys(call.outcomes ?? {}).filter((c) => c !== '*')]), OTHER];

  const rows = codes.map((code) => {
    const { outcome, from } = outcomeFor(call, code, outcomes, current.kind === 'probe' || current.kind === 'enter');
    const by = st(HANDLED_BY[from]);
    const scope: Scope = {
      form: {},
      ctx: { ...screen.context },
      params: {},
      query: {},
      env: { origin: window.location.origin, brandingHostname: window.location.hostname },
      flags: siteFlags(flags),
      response: bodyFor({ code, resultFrom: call.resultFrom }),
    };
    const plan = planOutcome(outcome, scope);
    const shows = [
      plan.message ? translate(plan.message.key, plan.message.values) : undefined,
      plan.error ? translate(plan.error.key, plan.error.values) : undefined,
      plan.warning ? translate(plan.warning.key, plan.warning.values) : undefined,
      ...Object.entries(plan.fieldErrors ?? {}).map(([field, text]) => `${field}: ${translate(text.key, text.values)}`),
    ].filter(Boolean) as string[];
    return { code, by, plan, shows };
  });

  return (
    <div className="studio__sim" data-testid="studio-simulator">
      <Choice
        label={st('studio.call')}
        value={String(selected)}
        options={calls.map((c, i) => ({ value: String(i), label: c.label }))}
        onChange={(value) => setSelected(Number(value))}
        testId="studio-call"
      />
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
                <button type="button" className="studio__link" onClick={() => setPlanShown(planShown === code ? undefined : code)}>
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
                  <Button variant="secondary" onClick={() => onRun(current, code === OTHER ? 'STUDIO_OTHER_CODE' : code)}>
                    {st('studio.run')}
                  </Button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
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
