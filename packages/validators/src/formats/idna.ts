/**
 * IDNA A-label validation (RFC 5890 §2.3.2.1, RFC 5891 §5.4, RFC 5892).
 *
 * An A-label ("xn--…") is Punycode-decoded (RFC 3492) to its U-label, which
 * must then be a valid IDNA2008 label:
 * - non-empty, with at least one non-ASCII code point, in NFC;
 * - no "--" in the 3rd and 4th positions, no leading or trailing hyphen;
 * - not starting with a combining mark;
 * - every code point PVALID, or CONTEXTJ/CONTEXTO with its rule satisfied
 *   (ZWNJ, ZWJ, MIDDLE DOT, Greek KERAIA, Hebrew GERESH/GERSHAYIM, KATAKANA
 *   MIDDLE DOT, Arabic-Indic digits).
 *
 * The derived property (RFC 5892 §3) is computed from the JavaScript
 * engine's Unicode data: exceptions, unassigned, LDH, joining controls,
 * unstable under NFKC+case folding, ignorable properties and blocks, old
 * Hangul jamo, letters/digits. The Bidi rule (RFC 5893 §2) is applied, like
 * the Python "idna" package does, to each label containing right-to-left
 * characters; Bidi_Class is approximated from scripts and general
 * categories (JavaScript exposes no Bidi_Class): R/AL = letters of the
 * right-to-left scripts, AN = Arabic-Indic digits, EN = ASCII and extended
 * Arabic-Indic digits, NSM = Mn/Me, L = any other letter, Mc or digit.
 * Labels are at most 63 characters, so all loops here are bounded.
 */
import { JOINING_LEFT, JOINING_RIGHT, JOINING_TRANSPARENT, VIRAMA } from './idnaTables.js';

const MAXINT = 0x7fffffff;
const BASE = 36;
const TMIN = 1;
const TMAX = 26;
const SKEW = 38;
const DAMP = 700;

function adapt(delta: number, numPoints: number, first: boolean): number {
  let d = first ? Math.floor(delta / DAMP) : delta >> 1;
  d += Math.floor(d / numPoints);
  let k = 0;
  while (d > ((BASE - TMIN) * TMAX) >> 1) {
    d = Math.floor(d / (BASE - TMIN));
    k += BASE;
  }
  return k + Math.floor(((BASE - TMIN + 1) * d) / (d + SKEW));
}

function digitOf(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 22; // 0-9 → 26-35
  const l = c | 0x20;
  if (l >= 0x61 && l <= 0x7a) return l - 0x61; // a-z → 0-25
  return -1;
}

/** RFC 3492 decoding; returns code points, or null when the input is not valid Punycode. */
export function punycodeDecode(input: string): number[] | null {
  const out: number[] = [];
  const b = input.lastIndexOf('-');
  for (let j = 0; j < b; j++) {
    const c = input.charCodeAt(j);
    if (c >= 0x80) return null;
    out.push(c);
  }
  let pos = b > 0 ? b + 1 : 0;
  let n = 128;
  let i = 0;
  let bias = 72;
  while (pos < input.length) {
    const oldi = i;
    let w = 1;
    for (let k = BASE; ; k += BASE) {
      if (pos >= input.length) return null;
      const digit = digitOf(input.charCodeAt(pos++));
      if (digit < 0) return null;
      if (digit > Math.floor((MAXINT - i) / w)) return null;
      i += digit * w;
      const t = k <= bias ? TMIN : k >= bias + TMAX ? TMAX : k - bias;
      if (digit < t) break;
      if (w > Math.floor(MAXINT / (BASE - t))) return null;
      w *= BASE - t;
    }
    const len = out.length + 1;
    bias = adapt(i - oldi, len, oldi === 0);
    if (Math.floor(i / len) > MAXINT - n) return null;
    n += Math.floor(i / len);
    i %= len;
    if (n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff)) return null;
    out.splice(i, 0, n);
    i++;
  }
  return out;
}

type IdnaClass = 'PVALID' | 'CONTEXTJ' | 'CONTEXTO' | 'DISALLOWED';

const EXCEPTIONS: Record<number, IdnaClass> = {
  0x00df: 'PVALID',
  0x03c2: 'PVALID',
  0x06fd: 'PVALID',
  0x06fe: 'PVALID',
  0x0f0b: 'PVALID',
  0x3007: 'PVALID',
  0x00b7: 'CONTEXTO',
  0x0375: 'CONTEXTO',
  0x05f3: 'CONTEXTO',
  0x05f4: 'CONTEXTO',
  0x30fb: 'CONTEXTO',
  0x0640: 'DISALLOWED',
  0x07fa: 'DISALLOWED',
  0x302e: 'DISALLOWED',
  0x302f: 'DISALLOWED',
  0x3031: 'DISALLOWED',
  0x3032: 'DISALLOWED',
  0x3033: 'DISALLOWED',
  0x3034: 'DISALLOWED',
  0x3035: 'DISALLOWED',
  0x303b: 'DISALLOWED',
};

const UNASSIGNED = /\p{Cn}/u;
const IGNORABLE = /[\p{Default_Ignorable_Code_Point}\p{White_Space}\p{Noncharacter_Code_Point}]/u;
const LETTER_DIGIT = /[\p{Ll}\p{Lu}\p{Lo}\p{Nd}\p{Lm}\p{Mn}\p{Mc}]/u;
const COMBINING_MARK = /\p{M}/u;
const GREEK = /\p{Script=Greek}/u;
const HEBREW = /\p{Script=Hebrew}/u;
const KANA_HAN = /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u;

function isArabicIndic(cp: number): boolean {
  return cp >= 0x0660 && cp <= 0x0669;
}
function isExtArabicIndic(cp: number): boolean {
  return cp >= 0x06f0 && cp <= 0x06f9;
}

/** Memo of derived properties (bounded: cleared when full). */
const classCache = new Map<number, IdnaClass>();
const CACHE_MAX = 8192;

/** The IDNA2008 derived property of a code point (RFC 5892 §3). */
export function idnaClass(cp: number): IdnaClass {
  let c = classCache.get(cp);
  if (c === undefined) {
    c = deriveClass(cp);
    if (classCache.size >= CACHE_MAX) classCache.clear();
    classCache.set(cp, c);
  }
  return c;
}

function deriveClass(cp: number): IdnaClass {
  const ex = EXCEPTIONS[cp];
  if (ex) return ex;
  if (isArabicIndic(cp) || isExtArabicIndic(cp)) return 'CONTEXTO';
  const s = String.fromCodePoint(cp);
  if (UNASSIGNED.test(s)) return 'DISALLOWED';
  if ((cp >= 0x61 && cp <= 0x7a) || (cp >= 0x30 && cp <= 0x39) || cp === 0x2d) return 'PVALID';
  if (cp === 0x200c || cp === 0x200d) return 'CONTEXTJ';
  // Unstable: toNFKC(toCaseFold(toNFKC(cp))) != cp (toLowerCase stands in for
  // case folding; Cherokee small letters fold to capitals, listed by hand).
  if (s.normalize('NFKC').toLowerCase().normalize('NFKC') !== s) return 'DISALLOWED';
  if ((cp >= 0x13f8 && cp <= 0x13fd) || (cp >= 0xab70 && cp <= 0xabbf) || cp === 0x0345) return 'DISALLOWED';
  if (IGNORABLE.test(s)) return 'DISALLOWED';
  if ((cp >= 0x20d0 && cp <= 0x20ff) || (cp >= 0x1d100 && cp <= 0x1d24f)) return 'DISALLOWED';
  if ((cp >= 0x1100 && cp <= 0x11ff) || (cp >= 0xa960 && cp <= 0xa97f) || (cp >= 0xd7b0 && cp <= 0xd7ff)) {
    return 'DISALLOWED';
  }
  return LETTER_DIGIT.test(s) ? 'PVALID' : 'DISALLOWED';
}

const ch = (cp: number | undefined): string => (cp === undefined ? '' : String.fromCodePoint(cp));

function contextJ(u: number[], i: number): boolean {
  const prev = u[i - 1];
  if (prev !== undefined && VIRAMA.test(ch(prev))) return true;
  if (u[i] === 0x200d) return false;
  // ZWNJ: (Joining_Type:{L,D})(Joining_Type:T)* ZWNJ (Joining_Type:T)*(Joining_Type:{R,D})
  let j = i - 1;
  while (j >= 0 && JOINING_TRANSPARENT.test(ch(u[j]))) j--;
  if (j < 0 || !JOINING_LEFT.test(ch(u[j]))) return false;
  j = i + 1;
  while (j < u.length && JOINING_TRANSPARENT.test(ch(u[j]))) j++;
  return j < u.length && JOINING_RIGHT.test(ch(u[j]));
}

function contextO(u: number[], i: number): boolean {
  const cp = u[i]!;
  switch (cp) {
    case 0x00b7:
      return u[i - 1] === 0x6c && u[i + 1] === 0x6c;
    case 0x0375:
      return u[i + 1] !== undefined && GREEK.test(ch(u[i + 1]));
    case 0x05f3:
    case 0x05f4:
      return u[i - 1] !== undefined && HEBREW.test(ch(u[i - 1]));
    case 0x30fb:
      return u.some((c) => c !== 0x30fb && KANA_HAN.test(ch(c)));
    default:
      if (isArabicIndic(cp)) return !u.some(isExtArabicIndic);
      if (isExtArabicIndic(cp)) return !u.some(isArabicIndic);
      return false;
  }
}

const RTL_LETTER =
  /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Adlam}\p{Script=Hanifi_Rohingya}\p{Script=Mende_Kikakui}\p{Script=Yezidi}]/u;
const LETTER_OR_MC = /[\p{L}\p{Mc}\p{Nd}]/u;
const NSM = /[\p{Mn}\p{Me}]/u;

type Bidi = 'RAL' | 'AN' | 'EN' | 'NSM' | 'L' | 'ON';
const bidiCache = new Map<number, Bidi>();

function bidiOf(cp: number): Bidi {
  let b = bidiCache.get(cp);
  if (b === undefined) {
    b = deriveBidi(cp);
    if (bidiCache.size >= CACHE_MAX) bidiCache.clear();
    bidiCache.set(cp, b);
  }
  return b;
}

function deriveBidi(cp: number): Bidi {
  if ((cp >= 0x0660 && cp <= 0x0669) || cp === 0x066b || cp === 0x066c || (cp >= 0x10d30 && cp <= 0x10d39)) return 'AN';
  if ((cp >= 0x30 && cp <= 0x39) || (cp >= 0x06f0 && cp <= 0x06f9)) return 'EN';
  const c = ch(cp);
  if (NSM.test(c)) return 'NSM';
  if (RTL_LETTER.test(c) && LETTER_OR_MC.test(c)) return 'RAL';
  if (LETTER_OR_MC.test(c)) return 'L';
  return 'ON';
}

/** RFC 5893 §2 rules 1–4 for a label with right-to-left characters. */
function bidiOk(u: number[]): boolean {
  const classes = u.map(bidiOf);
  if (!classes.some((b) => b === 'RAL' || b === 'AN')) return true;
  if (classes[0] !== 'RAL') return false; // rule 1 (an RTL label starts with R/AL)
  if (classes.includes('L')) return false; // rule 2
  if (classes.includes('EN') && classes.includes('AN')) return false; // rule 4
  let last = classes.length - 1;
  while (last > 0 && classes[last] === 'NSM') last--;
  const end = classes[last];
  return end === 'RAL' || end === 'EN' || end === 'AN'; // rule 3
}

/** True when `label` (starting with "xn--", any case) is a valid IDNA A-label. */
export function isValidALabel(label: string): boolean {
  if (label.length > 63 || label.length < 5) return false;
  const u = punycodeDecode(label.slice(4));
  if (!u || u.length === 0) return false;
  if (!u.some((c) => c >= 0x80)) return false;
  const text = String.fromCodePoint(...u);
  if (text.normalize('NFC') !== text) return false;
  if (u[0] === 0x2d || u[u.length - 1] === 0x2d) return false;
  if (u[2] === 0x2d && u[3] === 0x2d) return false;
  if (COMBINING_MARK.test(ch(u[0]))) return false;
  if (!bidiOk(u)) return false;
  for (let i = 0; i < u.length; i++) {
    switch (idnaClass(u[i]!)) {
      case 'PVALID':
        break;
      case 'CONTEXTJ':
        if (!contextJ(u, i)) return false;
        break;
      case 'CONTEXTO':
        if (!contextO(u, i)) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}
