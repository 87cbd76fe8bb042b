import { Button } from '../../src/ui';
import { useId, useMemo, useState, type FormEvent } from 'react';
import { outcomeFor } from '../../catalogue/language/outcome-lookup';
import { planOutcome, type Scope } from '../../src/engine';
import { callsOf, leadsTo } from '../Simulator';
import { st } from '../studio-i18n';
import { Choice } from './Control';
import { callPath, routeCode, type Destination, type Json } from './edits';
import type { RecipeContext } from './context';
import { siteFlags } from '../../src/app/studio-entry';

/** Enough of a scope to tell where an outcome leads (its texts and values are not shown here). */
const EMPTY_SCOPE: Scope = {
  form: {},
  ctx: {},
  params: {},
  query: {},
  env: {},
  flags: siteFlags({ branded: false, production: false, selfRegistrationEnabled: true }),
  response: {},
};

/** Route a result code: a call of the step, one of its result codes, where it leads. */
export function RouteCode({ ctx }: { ctx: RecipeContext }) {
  const id = useId();
  const calls = useMemo(() => (ctx.resolved ? callsOf(ctx.resolved, ctx.step) : []), [ctx.resolved, ctx.step]);
  const [callIndex, setCallIndex] = useState(0);
  const [code, setCode] = useState('');
  const [target, setTarget] = useState('');
  const call = calls[Math.min(callIndex, calls.length - 1)];
  if (!call || !ctx.resolved) return <p className="recipe">{st('studio.noCalls')}</p>;
  const known = ctx.resultCodes[`${call.call.operation}${call.call.resultFrom ?? ''}`] ?? ctx.resultCodes[call.call.operation] ?? [];
  const codes = [...new Set([...known, ...Object.keys(call.call.outcomes ?? {}).filter((c) => c !== '*')])];
  const chosenCode = codes.includes(code) ? code : (codes[0] ?? '');
  const background = call.kind === 'probe' || call.kind === 'enter';
  const { outcome } = outcomeFor(call.call, chosenCode, ctx.outcomes, background);
  const now = leadsTo(planOutcome(outcome, EMPTY_SCOPE), ctx.routes);
  // Routes without parameters: a parameter needs a value from the response, which the JSON editor gives.
  const destinations: Array<{ value: string; label: string; to: Destination }> = [
    { value: 'stay', label: st('recipes.route.stay'), to: { stay: true } },
    ...Object.keys(ctx.resolved.steps)
      .filter((s) => s !== ctx.step)
      .map((s) => ({ value: `step:${s}`, label: st('recipes.route.toStep', { step: s }), to: { step: s } })),
    ...ctx.routes
      .filter((r) => !r.path.includes(':'))
      .map((r) => ({ value: `route:${r.path}`, label: st('recipes.route.toRoute', { path: r.path, screen: r.screenId }), to: { navigate: r.path } })),
  ];
  const chosen = destinations.find((d) => d.value === target) ?? destinations[0];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const path = callPath(ctx.raw, ctx.step, call.id);
    if (!path || !chosen || !chosenCode) return;
    ctx.apply(
      { screen: routeCode(ctx.screenText, path, chosenCode, outcome as Json, chosen.to) },
      st('recipes.route.done', { code: chosenCode, to: chosen.label }),
    );
  };
  return (
    <form onSubmit={submit} className="recipe" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>{st('recipes.route.title')}</h3>
      {calls.length > 1 ? (
        <Choice
          label={st('studio.call')}
          value={String(callIndex)}
          options={calls.map((c, i) => ({ value: String(i), label: c.label }))}
          onChange={(value) => setCallIndex(Number(value))}
        />
      ) : (
        <p className="recipe__note">{call.label}</p>
      )}
      <Choice label={st('studio.code')} value={chosenCode} options={codes} onChange={setCode} />
      <p className="recipe__note">{st('recipes.route.now', { where: now })}</p>
      <Choice label={st('recipes.route.leadsTo')} value={chosen?.value ?? ''} options={destinations} onChange={setTarget} />
      <Button type="submit" variant="primary">
        {st('recipes.route.apply')}
      </Button>
    </form>
  );
}
