import { EARLY_MARKS, HOLD_MS } from './lib/early-marks';

/**
 * The first script of every page, a few hundred bytes, loaded on its own before the app: the server's
 * page is usable before the app has taken it over (scripts/prerender.ts), and a submit pressed in
 * that time must not be lost. It is held (the button shows busy) and the app makes it once it is
 * ready (src/engine/form/early-input.ts). Should the app not come in time, a plain form
 * (its step's plainForm) is posted as it is, which the server answers (server/spa/forms.ts); with
 * scripts blocked this never runs and the browser posts it at once.
 */
document.addEventListener(
  'submit',
  (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || form.dataset[EARLY_MARKS.live] !== undefined) return;
    event.preventDefault();
    if (form.dataset[EARLY_MARKS.held] !== undefined) return;
    form.dataset[EARLY_MARKS.held] = '';
    if (form.dataset[EARLY_MARKS.plain] === undefined) return;
    setTimeout(() => {
      if (form.dataset[EARLY_MARKS.live] !== undefined || form.dataset[EARLY_MARKS.held] === undefined) return;
      delete form.dataset[EARLY_MARKS.held];
      form.submit();
    }, HOLD_MS);
  },
  true,
);
