import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generate, PATHS } from '../../scripts/acr/generate';
import { buildReport, LEVELS, type Criteria, type Manual } from '../../scripts/acr/report';
import type { A11yResults } from '../../scripts/acr/results';

/**
 * The conformance report generator (npm run acr): every WCAG 2.2 A and AA success criterion of
 * scripts/acr/criteria.json answered with a level and its evidence, from the kept run and the
 * hand-kept review; a criterion nobody answers refused; a finding lowers the level; and the report
 * kept in docs/acr/report.md is the one its inputs make.
 */
const root = process.cwd();
const read = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;
const criteria = read<Criteria>(PATHS.criteria);
const manual = read<Manual>(PATHS.manual);
const kept = read<A11yResults>(PATHS.kept);

describe('the accessibility conformance report', () => {
  it('lists WCAG 2.2 A and AA once each: 31 at A and 24 at AA, and 4.1.1 for Section 508 and EN 301 549', () => {
    const ids = criteria.wcag.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(criteria.wcag.filter((c) => c.level === 'A' && c.id !== '4.1.1')).toHaveLength(31);
    expect(criteria.wcag.filter((c) => c.level === 'AA')).toHaveLength(24);
  });

  it('answers every criterion from the kept run and the review, each with a level and evidence', () => {
    const { report } = generate(root, PATHS.kept);
    expect(report.unanswered).toEqual([]);
    expect(report.wcag.map((row) => row.id)).toEqual(criteria.wcag.map((c) => c.id));
    for (const row of report.wcag) {
      expect(LEVELS, row.id).toContain(row.conformance);
      expect(row.automated.length + (row.manual ? 1 : 0), `${row.id} has evidence`).toBeGreaterThan(0);
      if (row.manual) expect([row.manual.checkedBy, row.manual.checkedOn, row.manual.how].every(Boolean), `${row.id}: who, when, how`).toBe(true);
    }
    for (const chapter of [...report.section508, ...report.en301549].filter((c) => c.applies)) {
      for (const row of chapter.rows) expect(LEVELS, `${chapter.id} ${row.id}`).toContain(row.conformance);
    }
  });

  it('cites the automated checks that judged a criterion, with their states (keyboard: 2.1.1)', () => {
    const { report } = generate(root, PATHS.kept);
    const keyboard = report.wcag.find((row) => row.id === '2.1.1');
    expect(keyboard?.automated.map((e) => e.check)).toContain('keyboard-reach');
    expect(keyboard?.automated.find((e) => e.check === 'keyboard-reach')?.states).toBeGreaterThan(25);
  });

  it('refuses a criterion that neither a check nor the review answers (the control)', () => {
    const entries = Object.fromEntries(Object.entries(manual.entries).filter(([id]) => id !== '1.2.1'));
    const report = buildReport(criteria, kept, { ...manual, entries }, 'test');
    expect(report.unanswered).toEqual(['WCAG 1.2.1 Audio-only and Video-only (Prerecorded)']);
  });

  it('lowers the level when a check found problems: on some states Partially Supports, on every state Does Not Support', () => {
    const failing = (states: string[]): A11yResults => ({
      ...kept,
      checks: kept.checks.map((check) =>
        check.id === 'reflow' ? { ...check, findings: states.map((state) => ({ state, problem: 'scrolls sideways' })) } : check,
      ),
    });
    const reflow = kept.checks.find((check) => check.id === 'reflow');
    expect(reflow?.states.length).toBeGreaterThan(1);
    const level = (results: A11yResults) => buildReport(criteria, results, manual, 'test').wcag.find((row) => row.id === '1.4.10')?.conformance;
    expect(level(kept)).toBe('Supports');
    expect(level(failing(reflow?.states.slice(0, 1) ?? []))).toBe('Partially Supports');
    expect(level(failing(reflow?.states ?? []))).toBe('Does Not Support');
  });

  it('derives the functional performance criteria from the WCAG rows they rest on', () => {
    const { report } = generate(root, PATHS.kept);
    const chapter = report.section508.find((c) => c.id === '3');
    const withoutHearing = chapter?.rows.find((row) => row.id === '302.4');
    expect(withoutHearing?.conformance).toBe('Not Applicable');
    expect(withoutHearing?.derivedFrom?.map((d) => d.id)).toEqual(['1.2.1', '1.2.2', '1.2.4']);
  });

  it('keeps docs/acr/report.md as its inputs make it (run `npm run acr -- --keep` after a change)', () => {
    expect(readFileSync(PATHS.keptReport, 'utf8')).toBe(generate(root, PATHS.kept).markdown);
  });
});
