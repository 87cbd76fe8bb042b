import { SaxesParser, type SaxesTagNS } from 'saxes';

/**
 * XLIFF 2.0 (OASIS, core only) as the translators' exchange format: a small writer, and a reader on
 * a real XML parser (saxes: strict well-formedness, namespaces, positions; it expands no DTD or
 * external entity). One <file> per locale file, one <unit> per text (its id the i18n key), codes
 * as <ph> pointing into the unit's <originalData>. Anything else inside a <source> or <target> is
 * kept as a foreign element, for the import to refuse.
 */
export const XLIFF_NS = 'urn:oasis:names:tc:xliff:document:2.0';

/** Text, or a placeholder <ph> (its dataRef names the original code in the unit's originalData). */
export type Inline = string | { ph: string; dataRef?: string; line: number; column: number } | { foreign: string; line: number; column: number };

export interface XNote {
  category?: string;
  text: string;
}

export interface XUnit {
  id: string;
  notes: XNote[];
  /** originalData: data id -> the code it stands for ({{name}}, {name}, #). */
  data: Record<string, string>;
  source: Inline[];
  target?: Inline[];
  state?: string;
  line?: number;
  column?: number;
}

export interface XFile {
  id: string;
  original?: string;
  units: XUnit[];
}

export interface XDoc {
  srcLang: string;
  trgLang?: string;
  files: XFile[];
}

export interface XProblem {
  line?: number;
  column?: number;
  unit?: string;
  message: string;
}

const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttr = (text: string) => escapeText(text).replace(/"/g, '&quot;');
const attrs = (values: Record<string, string | undefined>) =>
  Object.entries(values)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${escapeAttr(v ?? '')}"`)
    .join('');

function inlineXml(parts: readonly Inline[], data: Record<string, string>): string {
  return parts
    .map((part) => {
      if (typeof part === 'string') return escapeText(part);
      if ('ph' in part) return `<ph${attrs({ id: part.ph, dataRef: part.dataRef, disp: part.dataRef ? data[part.dataRef] : undefined })}/>`;
      return '';
    })
    .join('');
}

export function writeXliff(doc: XDoc): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>', `<xliff xmlns="${XLIFF_NS}" version="2.0"${attrs({ srcLang: doc.srcLang, trgLang: doc.trgLang })}>`];
  for (const file of doc.files) {
    out.push(`  <file${attrs({ id: file.id, original: file.original })}>`);
    for (const unit of file.units) {
      out.push(`    <unit${attrs({ id: unit.id })}>`);
      if (unit.notes.length > 0) {
        out.push('      <notes>');
        for (const note of unit.notes) out.push(`        <note${attrs({ category: note.category })}>${escapeText(note.text)}</note>`);
        out.push('      </notes>');
      }
      const data = Object.entries(unit.data);
      if (data.length > 0) {
        out.push('      <originalData>');
        for (const [id, code] of data) out.push(`        <data${attrs({ id })}>${escapeText(code)}</data>`);
        out.push('      </originalData>');
      }
      out.push(`      <segment${attrs({ state: unit.state })}>`);
      out.push(`        <source>${inlineXml(unit.source, unit.data)}</source>`);
      if (unit.target) out.push(`        <target>${inlineXml(unit.target, unit.data)}</target>`);
      out.push('      </segment>', '    </unit>');
    }
    out.push('  </file>');
  }
  out.push('</xliff>', '');
  return out.join('\n');
}

/** The reader's state: where in the document the parser is. */
interface Cursor {
  file?: XFile;
  unit?: XUnit;
  note?: XNote;
  dataId?: string;
  /** The inline content being read (a source or target), and the depth of foreign elements in it. */
  inline?: Inline[];
  foreignDepth: number;
  /** Text of a note or data element. */
  text: string;
  /** The document, once its <xliff> element opened. */
  doc?: XDoc;
}

type At = () => { line: number; column: number };

/** An element inside a source or target: a placeholder of ours, else foreign content (counted, so its end is found). */
function openInline(c: Cursor, tag: SaxesTagNS, at: At): void {
  const attr = (name: string) => tag.attributes[name]?.value;
  if (tag.uri === XLIFF_NS && tag.local === 'ph' && c.foreignDepth === 0) {
    c.inline?.push({ ph: attr('id') ?? '', dataRef: attr('dataRef'), ...at() });
    return;
  }
  if (c.foreignDepth === 0) c.inline?.push({ foreign: tag.name, ...at() });
  c.foreignDepth += 1;
}

/** An XLIFF element opens: the document, a file, a unit, a note, a data element, the segment, its source or target. */
function openElement(c: Cursor, tag: SaxesTagNS, at: At, problems: XProblem[]): void {
  const attr = (name: string) => tag.attributes[name]?.value;
  switch (tag.local) {
    case 'xliff': {
      const version = attr('version');
      if (version !== '2.0' && version !== '2.1') problems.push({ ...at(), message: `XLIFF version "${version ?? ''}": this import reads XLIFF 2.0` });
      c.doc = { srcLang: attr('srcLang') ?? '', trgLang: attr('trgLang'), files: [] };
      break;
    }
    case 'file':
      c.file = { id: attr('id') ?? '', original: attr('original'), units: [] };
      c.doc?.files.push(c.file);
      break;
    case 'unit':
      c.unit = { id: attr('id') ?? '', notes: [], data: {}, source: [], ...at() };
      c.file?.units.push(c.unit);
      break;
    case 'note':
      c.note = { category: attr('category'), text: '' };
      c.text = '';
      break;
    case 'data':
      c.dataId = attr('id') ?? '';
      c.text = '';
      break;
    case 'segment':
      if (c.unit) {
        if (c.unit.source.length > 0 || c.unit.target) problems.push({ ...at(), unit: c.unit.id, message: 'one segment per unit' });
        c.unit.state = attr('state');
      }
      break;
    case 'source':
      if (c.unit) c.inline = c.unit.source = [];
      break;
    case 'target':
      if (c.unit) c.inline = c.unit.target = [];
      break;
  }
}

/** An element closes: the inline content, a note's or a data element's text, a unit or a file ends. */
function closeElement(c: Cursor, tag: SaxesTagNS): void {
  if (c.inline) {
    if (c.foreignDepth > 0) c.foreignDepth -= 1;
    else if (tag.uri === XLIFF_NS && (tag.local === 'source' || tag.local === 'target')) c.inline = undefined;
    return;
  }
  if (tag.uri !== XLIFF_NS) return;
  if (tag.local === 'note' && c.note) {
    c.unit?.notes.push({ ...c.note, text: c.text });
    c.note = undefined;
  } else if (tag.local === 'data' && c.dataId !== undefined) {
    if (c.unit) c.unit.data[c.dataId] = c.text;
    c.dataId = undefined;
  } else if (tag.local === 'unit') c.unit = undefined;
  else if (tag.local === 'file') c.file = undefined;
}

/** Reads an XLIFF 2.0 document; a document that is not well-formed XML or not XLIFF 2.0 gives problems and no units. */
export function readXliff(xml: string): { doc?: XDoc; problems: XProblem[] } {
  const problems: XProblem[] = [];
  const parser = new SaxesParser({ xmlns: true, position: true });
  const at = () => ({ line: parser.line, column: parser.column });
  const c: Cursor = { foreignDepth: 0, text: '' };
  let failed = false;
  parser.on('error', (error) => {
    if (!failed) problems.push({ ...at(), message: `not well-formed XML: ${error.message.replace(/^[^:]*:\d+:\d+: /, '')}` });
    failed = true;
  });
  parser.on('doctype', () => problems.push({ ...at(), message: 'a DOCTYPE is not allowed' }));
  parser.on('opentag', (tag: SaxesTagNS) => {
    if (c.inline) openInline(c, tag, at);
    else if (tag.uri === XLIFF_NS) openElement(c, tag, at, problems);
  });
  parser.on('text', (text) => {
    if (c.inline && c.foreignDepth === 0) {
      const last = c.inline[c.inline.length - 1];
      if (typeof last === 'string') c.inline[c.inline.length - 1] = last + text;
      else c.inline.push(text);
    } else if (c.note || c.dataId !== undefined) c.text += text;
  });
  parser.on('closetag', (tag: SaxesTagNS) => closeElement(c, tag));
  try {
    parser.write(xml).close();
  } catch {
    /* reported by the error handler */
  }
  if (failed) return { problems };
  if (!c.doc) return { problems: [...problems, { line: 1, column: 1, message: `not an XLIFF 2.0 document (no <xliff> element in ${XLIFF_NS})` }] };
  return { doc: c.doc, problems };
}
