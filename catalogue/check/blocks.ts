import type { Block } from '../language/types';
import { checkCall } from './calls';
import { routeHas } from './context';
import { checkOutcome } from './outcomes';
import type { ScreenCheck } from './screen-check';
import { checkCondition, checkSource, checkText } from './sources';
import { closest } from './suggest';

/** What each block type needs besides its type (a link leads somewhere, a button does something, a card shows something). */
const NEEDS: Record<string, { has(block: Block): boolean; says: string }> = {
  link: { has: (b) => b.to !== undefined || b.href !== undefined, says: '"to" or "href"' },
  button: { has: (b) => b.call !== undefined || b.outcome !== undefined, says: '"call" or "outcome"' },
  card: { has: (b) => b.title !== undefined || b.lines !== undefined, says: '"title" or "lines"' },
};
const TEXT_BLOCKS = ['heading', 'text', 'link', 'button', 'spinner'];

/** The content blocks before or after a step's form (or of a step without one). */
export function checkBlocks(c: ScreenCheck, blocks: Block[] | undefined, pointer: string, fields?: Set<string>): void {
  const { catalogue } = c;
  const content = c.project.vocabulary.content;
  (blocks ?? []).forEach((block, i) => {
    const at = `${pointer}/${i}`;
    checkCondition(c, block.when, `${at}/when`);
    checkCondition(c, block.disabledWhen, `${at}/disabledWhen`);
    checkText(c, block.text, `${at}/text`);
    checkText(c, block.title, `${at}/title`);
    (block.lines ?? []).forEach((line, j) => {
      if (typeof line === 'string' || !('text' in line)) return checkText(c, line, `${at}/lines/${j}`);
      checkText(c, line.text, `${at}/lines/${j}/text`);
      checkSource(c, line.email, `${at}/lines/${j}/email`);
    });
    if (block.to && catalogue.routesKnown && !catalogue.allRoutes.some((route) => routeHas(route, block.to ?? '')))
      c.report(`${at}/to`, `no screen has a route for "${block.to}"`, closest(block.to, catalogue.allRoutes));
    if (block.type === 'component' && !content.includes(block.name ?? ''))
      c.report(
        `${at}/name`,
        `unknown content component "${block.name ?? ''}" (registered: ${content.join(', ') || 'none'})`,
        closest(block.name ?? '', content),
      );
    if (block.call) checkCall(c, block.call, `${at}/call`, fields);
    if (block.outcome) checkOutcome(c, block.outcome, `${at}/outcome`, fields);
    const needs = NEEDS[block.type];
    if (needs && !needs.has(block)) c.report(at, `a ${block.type} block needs ${needs.says}`);
    if (TEXT_BLOCKS.includes(block.type) && block.text === undefined) c.report(at, `a ${block.type} block needs "text"`);
  });
}
