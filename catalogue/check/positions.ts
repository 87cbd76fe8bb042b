import { parseTree, printParseErrorCode, visit, type Node, type ParseError } from 'jsonc-parser';
import { pointerOf, pointerSegments } from '../language/json-pointer';

/**
 * Source positions for JSON Pointers, so a problem can say "line 12, column 7" as well as
 * "/steps/credentials/uiSchema/email". jsonc-parser keeps offsets for every node (JSON.parse
 * keeps none) and reports syntax errors with an offset instead of giving up.
 */
export interface Position {
  line: number;
  column: number;
}

/** 1-based line and column of an offset. */
export function positionAt(text: string, offset: number): Position {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i += 1) {
    if (text.charCodeAt(i) === 10) {
      line += 1;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * The node a pointer names, or its deepest existing ancestor (a missing property is reported
 * at the object that lacks it). A property's value is located at its key: that is where a
 * reader looks for "ui:widget".
 */
export function offsetOfPointer(tree: Node, pointer: string): number {
  let node: Node = tree;
  const segments = pointerSegments(pointer);
  for (const segment of segments) {
    let next: Node | undefined;
    if (node.type === 'object') {
      const property = node.children?.find((p) => p.children?.[0]?.value === segment);
      next = property?.children?.[1];
    } else if (node.type === 'array' && /^\d+$/.test(segment)) {
      next = node.children?.[Number(segment)];
    }
    if (!next) break;
    node = next;
  }
  return node.parent?.type === 'property' ? node.parent.offset : node.offset;
}

/** jsonc-parser's error codes in words a product manager reads without a manual. */
const HUMAN: Record<string, string> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'malformed number',
  PropertyNameExpected: 'a property name in double quotes is expected',
  ValueExpected: 'a value is expected',
  ColonExpected: 'a colon (:) is expected',
  CommaExpected: 'a comma (,) is expected (is one missing at the end of the previous line?)',
  CloseBraceExpected: 'a closing brace (}) is expected',
  CloseBracketExpected: 'a closing bracket (]) is expected',
  EndOfFileExpected: 'unexpected text after the end of the document',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfComment: 'comments are not allowed in JSON',
  UnexpectedEndOfString: 'a string is not closed (missing ")',
  UnexpectedEndOfNumber: 'malformed number',
  InvalidUnicode: 'malformed \\u escape',
  InvalidEscapeCharacter: 'invalid escape character',
  InvalidCharacter: 'invalid character in a string',
};

export interface JsonSyntaxError extends Position {
  message: string;
}

/** The first syntax error of a JSON text with its position, or undefined for valid JSON. */
export function jsonSyntaxError(text: string): JsonSyntaxError | undefined {
  const errors: ParseError[] = [];
  parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (!first) return undefined;
  const code = printParseErrorCode(first.error);
  // A trailing comma is reported as the value missing after it: say what a reader did wrong.
  const trailingComma =
    code === 'PropertyNameExpected' || code === 'ValueExpected' ? /,\s*$/.test(text.slice(0, first.offset)) && /^[}\]]/.test(text.slice(first.offset)) : false;
  return {
    ...positionAt(text, first.offset),
    message: trailingComma ? 'a trailing comma before a closing bracket is not allowed in JSON' : (HUMAN[code] ?? code),
  };
}

/** Caches parse trees per file while a batch of problems is located. */
export class PositionFinder {
  private readonly trees = new Map<string, { text: string; tree: Node | undefined }>();

  constructor(private readonly read: (file: string) => string | undefined) {}

  find(file: string, pointer: string): Position | undefined {
    let entry = this.trees.get(file);
    if (!entry) {
      const text = this.read(file);
      if (text === undefined) return undefined;
      entry = { text, tree: parseTree(text) };
      this.trees.set(file, entry);
    }
    if (!entry.tree) return undefined;
    return positionAt(entry.text, offsetOfPointer(entry.tree, pointer));
  }
}

/** Keys written twice in one object (JSON.parse silently keeps the last): one problem per repeat. */
export function duplicateKeys(text: string, file: string): Array<{ file: string; pointer: string; message: string } & Position> {
  const out: Array<{ file: string; pointer: string; message: string } & Position> = [];
  const seen: Array<Set<string>> = [];
  visit(text, {
    onObjectBegin: () => void seen.push(new Set()),
    onObjectEnd: () => void seen.pop(),
    onObjectProperty: (name, offset, _length, _line, _column, pathSupplier) => {
      const keys = seen[seen.length - 1];
      if (!keys) return;
      if (keys.has(name)) {
        const pointer = pointerOf([...pathSupplier(), name].map(String));
        out.push({
          file,
          pointer,
          message: `"${name}" is written twice in this object: the second one wins and the first is silently lost`,
          ...positionAt(text, offset),
        });
      }
      keys.add(name);
    },
  });
  return out;
}
