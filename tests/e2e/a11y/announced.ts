import type { CDPSession } from '@playwright/test';

/**
 * What a screen reader is given on a screen state, from Chromium's own accessibility tree
 * (CDP Accessibility.getFullAXTree): landmarks, headings, every control with its role, accessible
 * name, description (its linked help and error text) and state, named groups and images, and every
 * live region with the text it holds (errors and status messages are announced from there). One line
 * per node, indented under the nearest listed ancestor: a text snapshot kept under
 * tests/e2e/a11y.spec.ts-snapshots/ and reviewed like code (docs/accessibility-conformance.md).
 * Also checks what the tree makes checkable: every control named (4.1.2), its visible label inside
 * its name (2.5.3).
 */

/** Chromium's whole tree of the page, in its own terms. */
export async function accessibilityTree(cdp: CDPSession) {
  return (await cdp.send('Accessibility.getFullAXTree')).nodes;
}
type AXNode = Awaited<ReturnType<typeof accessibilityTree>>[number];

const CONTROLS = new Set([
  'button',
  'link',
  'textbox',
  'searchbox',
  'checkbox',
  'radio',
  'combobox',
  'listbox',
  'switch',
  'slider',
  'spinbutton',
  'tab',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
]);
const STRUCTURE = new Set(['heading', 'dialog', 'alertdialog', 'banner', 'main', 'contentinfo', 'navigation', 'complementary']);
/** Listed only when named (an unnamed group or region says nothing). */
const NAMED_ONLY = new Set(['group', 'radiogroup', 'region', 'img', 'image', 'form', 'list']);
const LIVE_ROLES = new Set(['alert', 'status', 'log', 'timer', 'marquee']);
/** States worth hearing; others (focusable, settable, ...) are the same for every control of a role. */
const STATES = ['required', 'invalid', 'checked', 'pressed', 'expanded', 'disabled', 'readonly', 'busy', 'level', 'modal'];

const valueOf = (node: AXNode, name: string): unknown => node.properties?.find((p) => p.name === name)?.value.value;
const text = (value: unknown): string =>
  (typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value)).replace(/\s+/g, ' ').trim();
/** Numbers that change from run to run (the time in an address made for the run): masked. */
const stable = (line: string): string => line.replace(/\d{6,}/g, '<n>');

function states(node: AXNode): string[] {
  const out: string[] = [];
  // A checkbox or radio says whether it is ticked either way.
  if (
    ['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio'].includes(text(node.role?.value)) &&
    [undefined, false, 'false'].includes(valueOf(node, 'checked') as string)
  )
    out.push('not checked');
  for (const name of STATES) {
    const value = valueOf(node, name);
    if (value === undefined || value === false || value === 'false') continue;
    out.push(value === true ? name : `${name}=${text(value)}`);
  }
  return out;
}

/** The text inside a node (its static text descendants), for a live region. */
function innerText(byId: Map<string, AXNode>, node: AXNode): string {
  const parts: string[] = [];
  const visit = (n: AXNode) => {
    if (!n.ignored && n.role?.value === 'StaticText') parts.push(text(n.name?.value));
    for (const child of n.childIds ?? []) {
      const c = byId.get(child);
      if (c) visit(c);
    }
  };
  visit(node);
  return parts.filter(Boolean).join(' ');
}

/** A node's line, and whether it opens a live region; undefined when the node is not listed. */
function line(byId: Map<string, AXNode>, node: AXNode, inLive: boolean): { line: string; live: boolean } | undefined {
  const role = text(node.role?.value);
  const name = text(node.name?.value);
  const live = valueOf(node, 'live');
  if (!inLive && (LIVE_ROLES.has(role) || (typeof live === 'string' && live !== 'off'))) {
    const said = innerText(byId, node);
    return { line: `${role} (${text(live) || 'live'})${said ? `: "${said}"` : ': (empty)'}`, live: true };
  }
  const listed = CONTROLS.has(role) || STRUCTURE.has(role) || (NAMED_ONLY.has(role) && name !== '');
  if (!listed) return undefined;
  const description = text(node.description?.value);
  // A picker's value is what it shows; a text field's value is what was typed: not part of the snapshot.
  const value = role === 'combobox' && node.value ? ` = "${text(node.value.value)}"` : '';
  const extra = [...states(node), description ? `described by "${description}"` : ''].filter(Boolean);
  return { line: `${role} "${name}"${value}${extra.length ? ` [${extra.join('; ')}]` : ''}`, live: false };
}

/** The snapshot text of the page's tree. */
export function formatTree(nodes: AXNode[]): string {
  const byId = new Map(nodes.map((n) => [n.nodeId, n]));
  const root = nodes.find((n) => n.parentId === undefined);
  const out: string[] = [];
  const visit = (node: AXNode, depth: number, inLive: boolean) => {
    const own = node.ignored ? undefined : line(byId, node, inLive);
    if (own) out.push(`${'  '.repeat(depth)}${stable(own.line)}`);
    // Inside a live region only its controls are listed further: its text is on the region's line.
    for (const child of node.childIds ?? []) {
      const c = byId.get(child);
      if (c) visit(c, own ? depth + 1 : depth, inLive || own?.live === true);
    }
  };
  if (root) visit(root, 0, false);
  return `${out.join('\n')}\n`;
}

/**
 * Problems the tree shows: a control without a name (WCAG 4.1.2), a control whose visible text is
 * not part of its name (2.5.3: speech users say what they see).
 */
export function namingProblems(nodes: AXNode[]): string[] {
  const problems: string[] = [];
  for (const node of nodes) {
    const role = text(node.role?.value);
    if (node.ignored || !CONTROLS.has(role)) continue;
    const name = text(node.name?.value);
    if (!name) problems.push(`a ${role} has no accessible name`);
    // Chromium gives the name's source: contents for buttons and links named by their text.
    const visible = node.name?.sources?.find((source) => source.type === 'contents')?.value?.value;
    if (typeof visible === 'string' && visible.trim() && !name.toLowerCase().includes(text(visible).toLowerCase()))
      problems.push(`${role} "${name}" does not contain its visible text "${text(visible)}"`);
  }
  return problems;
}
