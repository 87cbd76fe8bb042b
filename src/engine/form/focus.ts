/**
 * Where focus goes when a form has errors: the control of the first invalid field in the order the
 * page shows them (the field template marks an invalid field `fd-field--invalid`), so a person using
 * a keyboard or a screen reader lands on what to fix, and a phone scrolls it into view.
 */
const CONTROL = 'input:not([type="hidden"]):not([hidden]), select, textarea';

/** The control of a field by its rjsf id: the element itself, or the first of a group (radios are `id-0`, ...). */
function controlOf(root: ParentNode, id: string): HTMLElement | null {
  const exact = root.querySelector<HTMLElement>(`[id="${CSS.escape(id)}"]`);
  if (exact?.matches(CONTROL)) return exact;
  return root.querySelector<HTMLElement>(`[id^="${CSS.escape(id)}-"]`) ?? exact;
}

export function focusField(root: ParentNode, id: string): void {
  controlOf(root, id)?.focus();
}

export function focusFirstInvalid(root: ParentNode | null | undefined): void {
  root?.querySelector('.fd-field--invalid')?.querySelector<HTMLElement>(CONTROL)?.focus();
}
