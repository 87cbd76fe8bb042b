/**
 * A change of the catalogue in people's words: what a product manager or an approver reads in the
 * studio's diff (studio/review renders each kind with its own text). Data only, so the server can
 * compute it and the studio can word it in any language. Every item names the screen and step it
 * affects (the before/after pictures are taken there) and, for texts, the language.
 */

/** Where a result code leads. */
export type Target =
  | { kind: 'stay'; message?: string }
  | { kind: 'step'; step: string }
  | { kind: 'route'; path: string }
  | { kind: 'authenticate' }
  | { kind: 'redirect' }
  | { kind: 'resubmit' };

/** The call a result code answers: the step's submit, a probe of a field, a button, the screen's on-enter call or timer. */
export interface CallRef {
  kind: 'submit' | 'probe' | 'button' | 'enter' | 'timer';
  /** The operation called ('' for a submit without one, e.g. a Continue to the next step). */
  operation: string;
}

/** A screen and (when the change is inside one) a step of it. */
export interface Place {
  screen: string;
  step?: string;
}

export type DiffItem =
  | (Place & { kind: 'screen-added' | 'screen-removed' })
  | (Place & { kind: 'step-added' | 'step-removed'; step: string })
  | (Place & { kind: 'field-added'; step: string; field: string; label?: string; required: boolean })
  | (Place & { kind: 'field-removed'; step: string; field: string; label?: string })
  | (Place & { kind: 'fields-reordered'; step: string; before: string[]; after: string[] })
  | (Place & { kind: 'field-required'; step: string; field: string; label?: string; required: boolean })
  | (Place & { kind: 'widget-swapped'; step: string; field: string; label?: string; before?: string; after?: string })
  /** A field's label: its text in one language changed, or the field now shows another text. */
  | (Place & { kind: 'field-relabelled'; step: string; field: string; lang: string; before?: string; after?: string })
  | (Place & { kind: 'route-changed'; call: CallRef; code: string; before?: Target; after?: Target })
  | (Place & { kind: 'message-changed'; call: CallRef; code: string; before?: string; after?: string })
  /** Other parts of a screen file (JSON pointers), so that nothing changed goes unmentioned. */
  | (Place & { kind: 'screen-other'; pointers: string[] })
  | {
      kind: 'text-added' | 'text-removed' | 'text-changed';
      lang: string;
      /** The dotted key ('login.fields.email'). */
      key: string;
      before?: string;
      after?: string;
      /** Where the text shows (screens and steps naming the key). */
      uses: Place[];
    }
  | { kind: 'file-added' | 'file-removed'; path: string };

export type DiffKind = DiffItem['kind'];

/** A side of a comparison: the text of a catalogue file as it is on that side, or null when it does not exist. */
export type FileReader = (path: string) => string | null;

export interface DiffInput {
  /** The files that differ ('screens/<id>.json', 'locales/<lang>/<file>.json'). */
  paths: readonly string[];
  before: FileReader;
  after: FileReader;
  /** Every screen id of the catalogue (to find where a changed text is used). */
  screens: readonly string[];
  /** The language labels are quoted in (en-us). */
  defaultLanguage: string;
}
