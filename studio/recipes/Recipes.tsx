import { useState } from 'react';
import { st } from '../studio-i18n';
import { Choice } from './Control';
import { AddField, RemoveField, ReorderFields, SwapWidget } from './FieldRecipes';
import { ChangeMessage, Relabel } from './TextRecipes';
import { RouteCode } from './RouteRecipe';
import type { RecipeContext } from './context';

const RECIPES = {
  add: AddField,
  reorder: ReorderFields,
  remove: RemoveField,
  relabel: Relabel,
  message: ChangeMessage,
  route: RouteCode,
  widget: SwapWidget,
} as const;
type RecipeName = keyof typeof RECIPES;

/**
 * The common edits as forms (docs/editing-screens.md, "Recipes"): each changes the screen file and
 * the locale files as the JSON tab shows them, for the step chosen in the bar. Nothing is written
 * before Save.
 */
export function Recipes({ ctx, note }: { ctx: RecipeContext | undefined; note: string | undefined }) {
  const [recipe, setRecipe] = useState<RecipeName>('add');
  const Form = RECIPES[recipe];
  return (
    <div className="studio__recipes" data-testid="studio-recipes">
      <Choice
        label={st('recipes.choose')}
        value={recipe}
        options={Object.keys(RECIPES).map((name) => ({ value: name, label: st(`recipes.names.${name}`) }))}
        onChange={(value) => setRecipe(value as RecipeName)}
      />
      {ctx ? (
        <>
          <p className="recipe__note">{st('recipes.onStep', { step: ctx.step, screen: ctx.screenId })}</p>
          <Form key={`${ctx.screenId}-${ctx.step}-${recipe}`} ctx={ctx} />
        </>
      ) : (
        <p role="alert">{st('recipes.unavailable')}</p>
      )}
      <p role="status" className="recipe__done" data-testid="studio-recipe-status">
        {note}
      </p>
    </div>
  );
}
