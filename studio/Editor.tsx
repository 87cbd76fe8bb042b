import { useEffect, useRef } from 'react';
import { basicSetup } from 'codemirror';
import { EditorView } from '@codemirror/view';
import { EditorState, StateEffect } from '@codemirror/state';
import { json, jsonParseLinter } from '@codemirror/lang-json';
import { linter, type Diagnostic } from '@codemirror/lint';
import { jsonSchema } from 'codemirror-json-schema';

/** Dispatched when the check's problems change: the linter re-runs without a document change. */
const problemsChanged = StateEffect.define<null>();

export interface EditorProblem {
  line?: number;
  column?: number;
  message: string;
}

interface EditorProps {
  /** Initial text; remount (key) to replace it. */
  initial: string;
  onChange(text: string): void;
  /** JSON Schema of the document: completion, hover docs and validation while typing. */
  schema?: Record<string, unknown>;
  /** Problems from the catalogue check (cross-checks the schema cannot express), by position. */
  problems: EditorProblem[];
  label: string;
}

/** CodeMirror 6 with JSON-schema completion (codemirror-json-schema) and the check's problems inline. */
export function Editor({ initial, onChange, schema, problems, label }: EditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView>(null);
  const problemsRef = useRef(problems);
  const changeRef = useRef(onChange);
  changeRef.current = onChange;

  useEffect(() => {
    if (!host.current) return;
    const checkProblems = linter(
      (v) =>
        problemsRef.current.map((p): Diagnostic => {
          const doc = v.state.doc;
          const line = doc.line(Math.min(Math.max(p.line ?? 1, 1), doc.lines));
          const from = Math.min(line.from + Math.max((p.column ?? 1) - 1, 0), line.to);
          return { from, to: Math.max(from, line.to), severity: 'error', message: p.message, source: 'screens:check' };
        }),
      { delay: 0, needsRefresh: (update) => update.transactions.some((tr) => tr.effects.some((e) => e.is(problemsChanged))) },
    );
    const created = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: initial,
        extensions: [
          basicSetup,
          // jsonSchema() brings the JSON language, schema completion, hover and schema lint.
          schema ? jsonSchema(schema as Parameters<typeof jsonSchema>[0]) : [json(), linter(jsonParseLinter())],
          checkProblems,
          EditorView.contentAttributes.of({ 'aria-label': label }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) changeRef.current(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = created;
    return () => created.destroy();
    // The editor owns its text after mount; a new document comes with a new key.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    problemsRef.current = problems;
    view.current?.dispatch({ effects: problemsChanged.of(null) });
  }, [problems]);

  return <div className="studio__editor" ref={host} data-testid="studio-editor" />;
}
