import { useId, useState, type FormEvent } from 'react';
import { RJSF_WIDGET_ALIASES } from '../../catalogue/language/rjsf-widgets';
import vocabulary from '../../widgets/vocabulary.json';
import { Button } from '../../src/ui';
import { st } from '../studio-i18n';
import { Choice, Control } from './Control';
import { addField, FIELD_KINDS, fieldOrder, moveField, nameFromLabel, removeField, swapWidget, type FieldKind } from './edits';
import { fieldName, localeBase, uiOf, type RecipeContext } from './context';

const NAME = /^[a-z][A-Za-z0-9]*$/;

/** Add a field: its English label, kind, place and whether it is required; its name comes from the label (editable under Advanced). */
export function AddField({ ctx }: { ctx: RecipeContext }) {
  const id = useId();
  const order = fieldOrder(ctx.raw, ctx.step);
  const [ownName, setOwnName] = useState<string>();
  const [label, setLabel] = useState('');
  const [kind, setKind] = useState<FieldKind>('text');
  const [required, setRequired] = useState(false);
  const [after, setAfter] = useState('');
  const [error, setError] = useState<string>();
  const name = ownName ?? nameFromLabel(label, order);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (label.trim() === '') return setError(st('recipes.add.noLabel'));
    if (!NAME.test(name)) return setError(st('recipes.add.badName'));
    if (order.includes(name)) return setError(st('recipes.add.taken', { name }));
    setError(undefined);
    const key = `${ctx.screenId}.fields.${name}`;
    const edit = addField(ctx.screenText, localeBase(ctx, key), ctx.screenId, ctx.step, {
      name,
      kind,
      label: label.trim(),
      required,
      after: after || undefined,
    });
    ctx.apply(edit, st('recipes.add.done', { label: label.trim(), count: ctx.languages.length - 1 }));
    setOwnName(undefined);
    setLabel('');
  };
  return (
    <form onSubmit={submit} className="recipe" aria-labelledby={`${id}-h`} noValidate>
      <h3 id={`${id}-h`}>{st('recipes.add.title')}</h3>
      <Control label={st('recipes.add.label')}>
        <input className="fd-input" value={label} onChange={(e) => setLabel(e.target.value)} />
      </Control>
      <Choice
        label={st('recipes.add.kind')}
        value={kind}
        options={Object.keys(FIELD_KINDS).map((k) => ({ value: k, label: st(`recipes.kinds.${k}`) }))}
        onChange={(value) => setKind(value as FieldKind)}
      />
      <Choice
        label={st('recipes.add.after')}
        value={after}
        options={[
          { value: '', label: st('recipes.add.atEnd') },
          ...order.map((f) => ({ value: f, label: st('recipes.add.afterField', { field: fieldName(ctx, f) }) })),
        ]}
        onChange={setAfter}
      />
      <label className="recipe__check">
        <input type="checkbox" checked={required} onChange={(e) => setRequired(e.target.checked)} />
        {st('recipes.add.required')}
      </label>
      <details className="recipe__advanced">
        <summary>{st('recipes.advanced')}</summary>
        <Control label={st('recipes.add.name')}>
          <input className="fd-input" value={name} onChange={(e) => setOwnName(e.target.value)} aria-describedby={`${id}-name`} />
        </Control>
        <small id={`${id}-name`} className="fd-field__help">
          {st('recipes.add.nameHelp')}
        </small>
      </details>
      {error ? (
        <p role="alert" className="recipe__error">
          {error}
        </p>
      ) : null}
      <Button type="submit" variant="primary">
        {st('recipes.add.apply')}
      </Button>
    </form>
  );
}

/** Reorder: each field with Move up / Move down. */
export function ReorderFields({ ctx }: { ctx: RecipeContext }) {
  const id = useId();
  const order = fieldOrder(ctx.raw, ctx.step);
  const move = (name: string, by: -1 | 1) =>
    ctx.apply({ screen: moveField(ctx.screenText, ctx.step, name, by) }, st('recipes.reorder.done', { field: fieldName(ctx, name) }));
  return (
    <section className="recipe" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>{st('recipes.reorder.title')}</h3>
      <ol className="recipe__order">
        {order.map((name, i) => (
          <li key={name}>
            <span>{fieldName(ctx, name)}</span>
            <Button variant="tertiary" disabled={i === 0} onClick={() => move(name, -1)}>
              {st('recipes.reorder.up', { field: fieldName(ctx, name) })}
            </Button>
            <Button variant="tertiary" disabled={i === order.length - 1} onClick={() => move(name, 1)}>
              {st('recipes.reorder.down', { field: fieldName(ctx, name) })}
            </Button>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** Remove a field (and what refers to it in this step). */
export function RemoveField({ ctx }: { ctx: RecipeContext }) {
  const id = useId();
  const order = fieldOrder(ctx.raw, ctx.step);
  const [name, setName] = useState('');
  const chosen = order.includes(name) ? name : (order[0] ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!chosen) return;
    ctx.apply({ screen: removeField(ctx.screenText, ctx.step, chosen) }, st('recipes.remove.done', { field: fieldName(ctx, chosen) }));
  };
  return (
    <form onSubmit={submit} className="recipe" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>{st('recipes.remove.title')}</h3>
      <Choice label={st('recipes.field')} value={chosen} options={fieldOptions(ctx, order)} onChange={setName} />
      <p className="recipe__note">{st('recipes.remove.note')}</p>
      <Button type="submit" variant="primary" disabled={!chosen}>
        {st('recipes.remove.apply')}
      </Button>
    </form>
  );
}

/** The fields of the step as choices, each by the name a person knows it by. */
function fieldOptions(ctx: RecipeContext, order: string[]) {
  return order.map((f) => ({ value: f, label: fieldName(ctx, f) }));
}

/** The widgets offered: the hosts' (widgets/vocabulary.json), then rjsf's short names. */
const WIDGETS = [...Object.keys(vocabulary.widgets), ...Object.keys(RJSF_WIDGET_ALIASES)];

/** Swap a widget: "ui:widget" of a field, or back to the default for its type. */
export function SwapWidget({ ctx }: { ctx: RecipeContext }) {
  const id = useId();
  const order = fieldOrder(ctx.raw, ctx.step);
  const [name, setName] = useState('');
  const chosen = order.includes(name) ? name : (order[0] ?? '');
  const current = uiOf(ctx, chosen)['ui:widget'];
  const [widget, setWidget] = useState<string>();
  const value = widget ?? (typeof current === 'string' ? current : '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!chosen) return;
    ctx.apply(
      { screen: swapWidget(ctx.screenText, ctx.step, chosen, value || undefined) },
      st('recipes.widget.done', { field: fieldName(ctx, chosen), widget: value || st('recipes.widget.default') }),
    );
  };
  return (
    <form onSubmit={submit} className="recipe" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>{st('recipes.widget.title')}</h3>
      <Choice
        label={st('recipes.field')}
        value={chosen}
        options={fieldOptions(ctx, order)}
        onChange={(field) => {
          setName(field);
          setWidget(undefined);
        }}
      />
      <Choice
        label={st('recipes.widget.widget')}
        value={value}
        options={[{ value: '', label: st('recipes.widget.default') }, ...WIDGETS]}
        onChange={setWidget}
      />
      <Button type="submit" variant="primary" disabled={!chosen}>
        {st('recipes.widget.apply')}
      </Button>
    </form>
  );
}
