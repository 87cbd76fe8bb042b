import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { RJSF_WIDGET_NAMES } from '../language/rjsf-widgets';
import type { Problem, Vocabulary } from './types';
import { CODE_ROOT } from './root';

export type { Vocabulary };

/**
 * The names screens may use that the engine's hosts provide (schemas/vocabulary.schema.json). Each
 * host declares its own beside its code, as data the check reads without importing the host: the
 * page (src/app/vocabulary.json: actions, '$name' flags, '$env/name' sources, the query parameters it
 * reads), the Verify MFA modal (src/mfa/vocabulary.json: its actions) and the widget registries
 * (widgets/vocabulary.json). A name no host declares is a mistake in the screen.
 */

/** The host declarations, relative to the code's root (not the catalogue's: a studio check runs on a copy). */
export const VOCABULARY_FILES = ['src/app/vocabulary.json', 'src/mfa/vocabulary.json', 'widgets/vocabulary.json'];

const PARTS = ['actions', 'flags', 'env', 'queries', 'widgets', 'content'] as const;

/** One host's declaration: its file, and the names of each part it declares. */
export interface HostDeclaration {
  file: string;
  names: Partial<Record<(typeof PARTS)[number], string[]>>;
}

let loaded: { vocabulary: Vocabulary; hosts: HostDeclaration[]; problems: Problem[] } | undefined;

/** The merged vocabulary of every host, read and checked once per process. */
export function loadVocabulary(): { vocabulary: Vocabulary; hosts: HostDeclaration[]; problems: Problem[] } {
  if (loaded) return loaded;
  const vocabulary: Vocabulary = { actions: [], flags: [], env: [], queries: [], widgets: [], content: [] };
  const problems: Problem[] = [];
  const hosts: HostDeclaration[] = [];
  const validate = new Ajv({ allErrors: true, strict: false }).compile(JSON.parse(readFileSync(join(CODE_ROOT, 'schemas/vocabulary.schema.json'), 'utf8')));
  for (const file of VOCABULARY_FILES) {
    const path = join(CODE_ROOT, file);
    if (!existsSync(path)) {
      problems.push({ file, pointer: '', message: 'the host vocabulary is missing' });
      continue;
    }
    let doc: Record<string, Record<string, string> | undefined>;
    try {
      doc = JSON.parse(readFileSync(path, 'utf8')) as typeof doc;
    } catch (error) {
      problems.push({ file, pointer: '', message: `invalid JSON: ${(error as Error).message}` });
      continue;
    }
    if (!validate(doc)) {
      for (const error of validate.errors ?? []) problems.push({ file, pointer: error.instancePath, message: error.message ?? error.keyword });
      continue;
    }
    const host: HostDeclaration = { file, names: {} };
    hosts.push(host);
    for (const part of PARTS) {
      if (doc[part]) host.names[part] = Object.keys(doc[part]);
      for (const name of Object.keys(doc[part] ?? {})) {
        if (vocabulary[part].includes(name)) problems.push({ file, pointer: `/${part}/${name}`, message: `"${name}" is declared by another host too` });
        else vocabulary[part].push(name);
      }
    }
  }
  for (const name of vocabulary.widgets.filter((w) => RJSF_WIDGET_NAMES.includes(w)))
    problems.push({ file: 'widgets/vocabulary.json', pointer: `/widgets/${name}`, message: `"${name}" is one of rjsf's own widgets` });
  loaded = { vocabulary, hosts, problems };
  return loaded;
}
