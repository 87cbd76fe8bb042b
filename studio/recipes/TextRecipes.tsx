import { Button } from '../../src/ui';
import { useId, useMemo, useState, type FormEvent } from 'react';
import { outcomeFor } from '../../catalogue/language/outcome-lookup';
import type { Outcome, TextRef } from '../../src/engine';
import { callsOf } from '../Simulator';
import { st } from '../studio-i18n';
import { Choice, Control } from './Control';
import { fieldOrder, labelKey, setText } from './edits';
import { fieldName, localeBase, textIn, type RecipeContext } from './context';
import { DEFAULT_LANGUAGE } from '../../src/app/studio-entry';

interface TextTarget {
  /** What a person picks ('Field: Email', 'Button: Sign in', 'AUTHENTICATION_FAILURE'). */
  label: string;
  key: string;
  /** For a field without a label key yet: the screen text that gives it one. */
  screen?: string;
}

const keyOf = (ref: TextRef | undefined) => (ref === undefined ? undefined : typeof ref === 'string' ? ref : ref.key);

/** One text in one language: the text as it is, a new text, Apply; and the way to all languages. */
function TextForm({ ctx, title, what, targets, done }: { ctx: RecipeContext; title: string; what: string; targets: TextTarget[]; done: string }) {
  const id = useId();
  const [index, setIndex] = useState(0);
  const [lang, setLang] = useState<string>(DEFAULT_LANGUAGE);
  const [draft, setDraft] = useState<string>();
  const target = targets[Math.min(index, targets.length - 1)];
  const current = target ? textIn(ctx, lang, target.key) : undefined;
  const english = target ? textIn(ctx, DEFAULT_LANGUAGE, target.key) : undefined;
  const value = draft ?? current ?? '';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!target) return;
    ctx.apply({ screen: target.screen, locales: setText(localeBase(ctx, target.key), target.key, lang, value) }, st(done, { text: value, lang }));
    setDraft(undefined);
  };
  if (!target) return <p className="recipe">{st('recipes.noTexts')}</p>;
  return (
    <form onSubmit={submit} className="recipe" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>{title}</h3>
      <Choice
        label={what}
        value={String(index)}
        options={targets.map((t, i) => ({ value: String(i), label: t.label }))}
        onChange={(value) => {
          setIndex(Number(value));
          setDraft(undefined);
        }}
      />
      <Choice
        label={st('recipes.language')}
        value={lang}
        options={ctx.languages}
        onChange={(value) => {
          setLang(value);
          setDraft(undefined);
        }}
      />
      <Control label={st('recipes.newText')}>
        <input value={value} placeholder={english} onChange={(e) => setDraft(e.target.value)} />
      </Control>
      <p className="recipe__note">
        {st('recipes.textKey', { key: target.key })} {current === undefined && lang !== DEFAULT_LANGUAGE ? st('recipes.pendingHere') : null}
      </p>
      <div className="recipe__buttons">
        <Button type="submit" variant="primary">
          {st('recipes.applyText')}
        </Button>
        <Button variant="secondary" onClick={() => ctx.showText(target.key)}>
          {st('recipes.allLanguages')}
        </Button>
      </div>
    </form>
  );
}

/** Relabel: a field's label, a button, the step's title. */
export function Relabel({ ctx }: { ctx: RecipeContext }) {
  const targets = useMemo(() => {
    const list: TextTarget[] = fieldOrder(ctx.raw, ctx.step).map((name) => {
      const { key, screen } = labelKey(ctx.screenText, ctx.screenId, ctx.step, name);
      return { label: st('recipes.relabel.field', { field: fieldName(ctx, name) }), key, ...(screen !== ctx.screenText ? { screen } : {}) };
    });
    const step = ctx.resolved?.steps[ctx.step];
    const submits = step?.submit === undefined ? [] : Array.isArray(step.submit) ? step.submit : [step.submit];
    for (const submit of submits) {
      const key = keyOf(submit.label);
      if (key) list.push({ label: st('recipes.relabel.button', { text: textIn(ctx, DEFAULT_LANGUAGE, key) ?? key }), key });
    }
    const title = keyOf(step?.title);
    if (title) list.push({ label: st('recipes.relabel.stepTitle', { text: textIn(ctx, DEFAULT_LANGUAGE, title) ?? title }), key: title });
    return list;
  }, [ctx]);
  return <TextForm ctx={ctx} title={st('recipes.relabel.title')} what={st('recipes.relabel.what')} targets={targets} done="recipes.relabel.done" />;
}

/** The texts an outcome shows. */
function outcomeTexts(outcome: Outcome): string[] {
  return [outcome.message?.key, keyOf(outcome.error), keyOf(outcome.warning), ...Object.values(outcome.fieldErrors ?? {}).map(keyOf)].filter(
    (k): k is string => k !== undefined,
  );
}

/** Change a message: the text a result code shows, whoever handles the code. */
export function ChangeMessage({ ctx }: { ctx: RecipeContext }) {
  const targets = useMemo(() => {
    if (!ctx.resolved) return [];
    const list: TextTarget[] = [];
    const seen = new Set<string>();
    for (const call of callsOf(ctx.resolved, ctx.step)) {
      const known = ctx.resultCodes[`${call.call.operation}${call.call.resultFrom ?? ''}`] ?? ctx.resultCodes[call.call.operation] ?? [];
      const codes = [...new Set([...known, ...Object.keys(call.call.outcomes ?? {}).filter((c) => c !== '*')])];
      for (const code of codes) {
        const { outcome } = outcomeFor(call.call, code, ctx.outcomes, call.kind === 'probe' || call.kind === 'enter');
        for (const key of outcomeTexts(outcome)) {
          if (seen.has(`${code}|${key}`)) continue;
          seen.add(`${code}|${key}`);
          list.push({ label: st('recipes.message.option', { code, text: textIn(ctx, DEFAULT_LANGUAGE, key) ?? key }), key });
        }
      }
    }
    return list;
  }, [ctx]);
  return <TextForm ctx={ctx} title={st('recipes.message.title')} what={st('recipes.message.what')} targets={targets} done="recipes.message.done" />;
}
