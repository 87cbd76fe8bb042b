// @vitest-environment jsdom
import { createRef } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { customizeValidator } from '@rjsf/validator-ajv8';
import { FormStep, type FormStepHandle } from '../../src/engine/form/FormStep';
import { ValidatorFactoryContext, type ValidatorFactory } from '../../src/engine/form/validator-factory';
import type { Scope } from '../../catalogue/language/scope';
import type { ScreenApi } from '../../src/engine/runtime-api';
import type { StepSpec } from '../../src/engine/types';
import { startI18n } from '../../src/app/i18n';

/**
 * Typing paints from the field's own state and reaches rjsf after the paint (src/engine/form/typing.tsx).
 * These tests hold the promises that makes: nothing typed is ever lost to a submit or a blur that comes
 * before the hand-over, and programmatic changes still show.
 */
// Tests compile the schema at run time; the app uses the build's precompiled validators.
const compiling: ValidatorFactory = () => customizeValidator();

const step: StepSpec = {
  schema: {
    type: 'object',
    required: ['company', 'name'],
    properties: { company: { type: 'string', minLength: 2 }, name: { type: 'string' } },
  },
  uiSchema: { company: { 'ui:title': 'Company' }, name: { 'ui:title': 'Name' } },
};
const scope: Scope = { form: {}, ctx: {}, params: {}, query: {}, env: {}, flags: {} as Scope['flags'] };

function renderStep(onSubmit = vi.fn(), onDataChange = vi.fn()) {
  const ref = createRef<FormStepHandle>();
  render(
    <ValidatorFactoryContext.Provider value={compiling}>
      <FormStep
        ref={ref}
        stepName="typing"
        step={step}
        validators={{} as never}
        initialData={{}}
        scope={scope}
        busy={false}
        submitLabel={{ key: 'login.submit', values: {} }}
        fieldErrors={{}}
        probeCall={async () => undefined}
        onSubmit={onSubmit}
        onDataChange={onDataChange}
        api={{} as ScreenApi}
      />
    </ValidatorFactoryContext.Provider>,
  );
  const field = (name: string) => screen.getByLabelText(name) as HTMLInputElement;
  return { ref, field, onSubmit, onDataChange };
}

beforeAll(async () => {
  await startI18n('en-us');
});
afterEach(cleanup);

describe('typing', () => {
  it('shows a key at once and hands it to the form data afterwards', async () => {
    const { ref, field, onDataChange } = renderStep();
    act(() => {
      fireEvent.change(field('Company'), { target: { value: 'Acme' } });
    });
    expect(field('Company').value).toBe('Acme');
    // Not in the same render: rjsf's re-derivation waits until the typed frame is painted.
    expect(onDataChange).not.toHaveBeenCalled();
    // A button beside the form (a block's call) still reads what the field shows.
    expect(ref.current?.data()).toEqual({ company: 'Acme' });
    await waitFor(() => expect(onDataChange).toHaveBeenLastCalledWith({ company: 'Acme' }));
  });

  it('hands over only the latest of several quick keys', async () => {
    const { field, onDataChange } = renderStep();
    act(() => {
      for (const value of ['A', 'Ac', 'Acm', 'Acme']) fireEvent.change(field('Company'), { target: { value } });
    });
    await waitFor(() => expect(onDataChange).toHaveBeenLastCalledWith({ company: 'Acme' }));
    expect(onDataChange.mock.calls.map(([data]) => (data as { company?: string }).company)).not.toContain('Acm');
    expect(field('Company').value).toBe('Acme');
  });

  it('a submit in the same moment as the last key sends what is on screen', async () => {
    const { field, onSubmit } = renderStep();
    act(() => {
      fireEvent.change(field('Company'), { target: { value: 'Acme' } });
      fireEvent.change(field('Name'), { target: { value: 'Ada' } });
      fireEvent.submit(field('Name').form!);
    });
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit).toHaveBeenCalledWith({ company: 'Acme', name: 'Ada' });
  });

  it('a blur right after a key validates the typed value, not the one before it', async () => {
    const { field, onSubmit } = renderStep();
    // A failed submit turns on validation on blur.
    act(() => {
      fireEvent.submit(field('Name').form!);
    });
    await waitFor(() => expect(field('Company').getAttribute('aria-invalid')).toBe('true'));
    expect(onSubmit).not.toHaveBeenCalled();
    act(() => {
      fireEvent.change(field('Company'), { target: { value: 'Acme' } });
      fireEvent.blur(field('Company'));
    });
    await waitFor(() => expect(field('Company').getAttribute('aria-invalid')).toBeNull());
    expect(field('Company').value).toBe('Acme');
  });

  it('a clear or set while a key is still in flight wins over the key', async () => {
    const { ref, field, onDataChange } = renderStep();
    act(() => {
      fireEvent.change(field('Company'), { target: { value: '123456' } });
      fireEvent.change(field('Name'), { target: { value: 'Ada' } });
      // e.g. a wrong code answered faster than the next frame: the outcome clears the field.
      ref.current?.clear(['company']);
      ref.current?.set({ name: 'Grace' });
    });
    await waitFor(() => expect(field('Company').value).toBe(''));
    expect(field('Name').value).toBe('Grace');
    // The scheduled hand-overs, when they come, change nothing.
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(field('Company').value).toBe('');
    expect(field('Name').value).toBe('Grace');
    expect(ref.current?.data()).toEqual({ name: 'Grace' });
    expect(onDataChange.mock.calls.some(([data]) => (data as { company?: string }).company === '123456')).toBe(false);
  });

  it('programmatic set and clear still show in the fields', async () => {
    const { ref, field } = renderStep();
    act(() => {
      fireEvent.change(field('Company'), { target: { value: 'Acme' } });
    });
    await waitFor(() => expect(ref.current?.data()).toEqual({ company: 'Acme' }));
    act(() => ref.current?.set({ name: 'Grace' }));
    await waitFor(() => expect(field('Name').value).toBe('Grace'));
    act(() => ref.current?.clear(['company']));
    await waitFor(() => expect(field('Company').value).toBe(''));
    expect(ref.current?.data()).toEqual({ name: 'Grace' });
  });
});
