import { describe, expect, it } from 'vitest';
import { screenFiles, timingFacts } from '../e2e/a11y/timing';

/**
 * The timing check of the accessibility walk (WCAG 2.2.1, tests/e2e/a11y/timing.ts): every time limit
 * a screen sets is 20 hours or longer, or a button of the screen turns it off; an error or warning
 * message never hides by itself. On the catalogue as it is, and on screens made to fail it.
 */
const timer = (when: unknown, afterMs = 5000) => ({ timers: [{ afterMs, when, outcome: { redirect: '$ctx/url' } }] });
const stayButton = { steps: { moved: { blocks: { before: [{ type: 'button', text: 'x.stay', outcome: { assign: { stayHere: true } } }] } } } };

describe('time limits in the catalogue', () => {
  it('the catalogue has none the visitor cannot turn off, and no error that hides by itself', () => {
    const facts = timingFacts(screenFiles());
    expect(facts.problems).toEqual([]);
    expect(facts.timers.join('\n')).toMatch(/accountMoved\.json.*a button turns it off \(stayHere\)/);
  });

  it('refuses a short time limit without a way to turn it off (the control), and one whose flag no button sets', () => {
    expect(timingFacts([{ file: 'a.json', screen: timer('url') }]).problems).toEqual([
      'a.json/timers/0: a 5 s time limit the visitor cannot turn off, adjust or extend',
    ]);
    expect(timingFacts([{ file: 'a.json', screen: timer(['url', '!stayHere']) }]).problems).toHaveLength(1);
  });

  it('accepts one a button turns off, and one of 20 hours', () => {
    expect(timingFacts([{ file: 'a.json', screen: { ...timer(['url', '!stayHere']), ...stayButton } }]).problems).toEqual([]);
    expect(timingFacts([{ file: 'a.json', screen: timer('url', 20 * 60 * 60 * 1000) }]).problems).toEqual([]);
  });

  it('refuses an error or a warning that hides by itself, in an outcome or a query message', () => {
    const screen = {
      queryMessages: { failed: { key: 'x.failed', kind: 'error' }, done: { key: 'x.done', kind: 'success' } },
      steps: {
        s: {
          submit: { outcomes: { '*': { message: { key: 'x.warn', kind: 'warning' } }, OK: { message: { key: 'x.kept', kind: 'error', permanent: true } } } },
        },
      },
    };
    expect(timingFacts([{ file: 'b.json', screen }]).problems.sort()).toEqual([
      'b.json/queryMessages/failed: the error "x.failed" hides after 5 seconds (make it permanent)',
      'b.json/steps/s/submit/outcomes/*/message: the warning "x.warn" hides after 5 seconds (make it permanent)',
    ]);
  });
});
