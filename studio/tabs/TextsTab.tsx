import type { Problem } from '../../catalogue/check/types';
import { Editor } from '../Editor';
import { Control } from '../recipes/Control';
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
      <Control label={st('studio.textsFile')}>
        <select value={file} onChange={(e) => onFile(e.target.value)} data-testid="studio-texts-file">
          {files.map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
      </Control>
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
