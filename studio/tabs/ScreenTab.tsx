import type { Problem } from '../../catalogue/check/types';
import { Editor } from '../Editor';

/** The screen file as JSON, with the meta-schema's completion and the check's problems inline. */
export function ScreenTab(props: {
  screenId: string;
  text: string;
  version: number;
  metaSchema: Record<string, unknown>;
  problems: Problem[];
  onType(text: string): void;
}) {
  return (
    <Editor
      key={`screen-${props.screenId}-${props.version}`}
      initial={props.text}
      schema={props.metaSchema}
      problems={props.problems}
      label={`screens/${props.screenId}.json`}
      onChange={props.onType}
    />
  );
}
