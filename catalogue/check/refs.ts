import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { readPointer } from '../language/json-pointer';

/**
 * Inlines file $refs ("defs/email.json", "common/loginResult.json#/properties/x") so the result
 * is one self-contained schema: what rjsf, the precompiled validators and Fastify's route schemas
 * need (the build, the check, the studio and server/contract.ts all inline here). Local "#/..."
 * refs are left for ajv. A missing file or pointer is reported, never guessed.
 *
 * The one merge rule: keywords beside a $ref refine the referenced schema, and a sibling wins over
 * the target's keyword of the same name ({ "$ref": "defs/email.json", "title": "x" } is the email
 * schema titled x). The target's own $schema and $id are dropped: the result lives in its new place.
 */
export class RefError extends Error {
  constructor(
    readonly pointer: string,
    message: string,
  ) {
    super(message);
  }
}

/** Reads and parses a referenced file (the check passes one that remembers what it read). */
export type RefReader = (file: string) => unknown;
const readJsonFile: RefReader = (file) => JSON.parse(readFileSync(file, 'utf8'));

export function inlineRefs(schema: unknown, baseDir: string, rootDir: string, at = '', seen: string[] = [], read: RefReader = readJsonFile): unknown {
  if (Array.isArray(schema)) return schema.map((item, i) => inlineRefs(item, baseDir, rootDir, `${at}/${i}`, seen, read));
  if (schema === null || typeof schema !== 'object') return schema;
  const node = schema as Record<string, unknown>;
  const ref = node.$ref;
  if (typeof ref === 'string' && !ref.startsWith('#') && !ref.includes(':')) {
    const [file = '', fragment = ''] = ref.split('#');
    const target = resolve(baseDir, file);
    const rel = relative(rootDir, target);
    if (rel.startsWith('..')) throw new RefError(`${at}/$ref`, `$ref "${ref}" points outside ${relative(process.cwd(), rootDir) || rootDir}`);
    if (seen.includes(`${target}#${fragment}`)) throw new RefError(`${at}/$ref`, `$ref "${ref}" is circular`);
    let doc: unknown;
    try {
      doc = read(target);
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
      throw new RefError(`${at}/$ref`, `$ref "${ref}" cannot be resolved: ${reason}`);
    }
    const picked = fragment === '' || fragment === '/' ? doc : readPointer(doc, fragment);
    if (picked === undefined) throw new RefError(`${at}/$ref`, `$ref "${ref}": the pointer #${fragment} does not exist in ${file}`);
    const resolved = inlineRefs(picked, dirname(target), rootDir, at, [...seen, `${target}#${fragment}`], read) as Record<string, unknown>;
    const { $ref: _ref, ...siblings } = node;
    const { $schema: _schema, $id: _id, ...own } = resolved;
    return { ...own, ...(inlineRefs(siblings, baseDir, rootDir, at, seen, read) as Record<string, unknown>) };
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = inlineRefs(value, baseDir, rootDir, `${at}/${key}`, seen, read);
  return out;
}
