import type { Problem } from '../../catalogue/check/types';
import { Editor } from '../Editor';
import { Choice } from '../recipes/Control';
import { st } from '../studio-i18n';

interface TextsTabProps {
  /** The locale files of the chosen language ("<lang>/<file>.json"). */
  files: string[];
  file: string | undefined;
  onFile(file: string): void;
  text(file: string): string | undefined;
  version: number;
  problems: Problem[];
  onType(file: string, text: string): void;
}

/** One locale file of the chosen language as JSON. */
export function TextsTab({ files, file, onFile, text, version, problems, onType }: TextsTabProps) {
  return (
    <>
      <Choice label={st('studio.textsFile')} value={file ?? ''} options={files} onChange={onFile} testId="studio-texts-file" />
      {file ? (
        <Editor
          key={`texts-${file}-${version}`}
          initial={text(file) ?? ''}
          problems={problems}
          label={`locales/${file}`}
          onChange={(typed) => onType(file, typed)}
        />
      ) : null}
    </>
  );
}
