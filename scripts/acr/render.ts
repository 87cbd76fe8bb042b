import type { AutomatedEvidence, Chapter, Report, Row } from './report';

/**
 * The conformance report in the VPAT 2.5 layout (INT edition: WCAG 2.2, Revised Section 508, EN 301
 * 549): the product and the run, the evaluation methods, then per standard a table of criterion,
 * conformance level, remarks and explanations. Markdown for the repository, HTML for buyers; both
 * from the same blocks.
 */

/** A paragraph, a table or a heading, rendered by each format its own way. */
type Block =
  | { kind: 'heading'; level: 1 | 2 | 3; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'list'; items: string[] }
  | { kind: 'table'; head: string[]; rows: string[][] }
  | { kind: 'details'; summary: string; items: string[] };

const TERMS: Record<string, string> = {
  Supports: 'The functionality of the product has at least one method that meets the criterion without known defects or meets with equivalent facilitation.',
  'Partially Supports': 'Some functionality of the product does not meet the criterion.',
  'Does Not Support': 'The majority of product functionality does not meet the criterion.',
  'Not Applicable': 'The criterion is not relevant to the product.',
};

function evidenceLine(e: AutomatedEvidence): string {
  const result = e.findings.length === 0 ? 'no findings' : `${e.findings.length} finding(s) on ${new Set(e.findings.map((f) => f.state)).size} state(s)`;
  const where =
    e.screens.length === 1 && e.screens[0] === 'catalogue' ? 'the screen catalogue (screens/*.json)' : `${e.states} states of ${e.screens.length} screens`;
  return `Automated (${e.check}): ${e.title}; ${where}: ${result}.`;
}

function remarks(row: Row): string[] {
  const out: string[] = [];
  if (row.note) out.push(row.note);
  if (row.manual) out.push(`${row.manual.remarks} (Reviewed by ${row.manual.checkedBy} on ${row.manual.checkedOn}: ${row.manual.how}.)`);
  out.push(...row.automated.map(evidenceLine));
  for (const e of row.automated) out.push(...e.findings.slice(0, 5).map((f) => `Finding on ${f.state}: ${f.problem}`));
  if (row.derivedFrom) out.push(`From the WCAG rows ${row.derivedFrom.map((d) => `${d.id} (${d.conformance})`).join(', ')}.`);
  return out;
}

function wcagBlocks(report: Report, level: 'A' | 'AA'): Block[] {
  return [
    { kind: 'heading', level: 3, text: `Table ${level === 'A' ? 1 : 2}: Success Criteria, Level ${level}` },
    {
      kind: 'table',
      head: ['Criteria', 'Conformance Level', 'Remarks and Explanations'],
      rows: report.wcag
        .filter((row) => row.level === level)
        .map((row) => [`${row.id} ${row.name} (Level ${row.level})`, row.conformance, remarks(row).join('\n')]),
    },
  ];
}

function chapterBlocks(chapters: Chapter[]): Block[] {
  return chapters.flatMap((chapter): Block[] => {
    if (!chapter.applies)
      return [
        { kind: 'heading', level: 3, text: chapter.title },
        { kind: 'paragraph', text: `Not applicable: ${chapter.why ?? ''}` },
      ];
    if (chapter.rows.length === 0)
      return [
        { kind: 'heading', level: 3, text: chapter.title },
        { kind: 'paragraph', text: chapter.note ?? '' },
      ];
    return [
      { kind: 'heading', level: 3, text: chapter.title },
      {
        kind: 'table',
        head: ['Criteria', 'Conformance Level', 'Remarks and Explanations'],
        rows: chapter.rows.map((row) => [`${row.id} ${row.name}`, row.conformance, remarks(row).join('\n')]),
      },
    ];
  });
}

function blocks(report: Report): Block[] {
  const { product, run } = report;
  const screens = new Set(report.states.map((s) => s.screen.split('/')[0]));
  return [
    { kind: 'heading', level: 1, text: `${product.name} Accessibility Conformance Report` },
    { kind: 'paragraph', text: 'International Edition, based on VPAT® Version 2.5 (WCAG 2.2, Revised Section 508, EN 301 549).' },
    { kind: 'paragraph', text: `Name of Product/Version: ${product.name} ${run.version ?? ''}, commit ${run.commit ?? 'unknown'}` },
    { kind: 'paragraph', text: `Report Date: ${run.at.slice(0, 10)} (the date of the automated run below)` },
    { kind: 'paragraph', text: `Product Description: ${product.description}` },
    { kind: 'paragraph', text: `Contact Information: ${product.contact}` },
    { kind: 'paragraph', text: `Notes: ${product.scope}${product.notes ? ` ${product.notes}` : ''}` },
    {
      kind: 'paragraph',
      text: `Evaluation Methods Used: the automated accessibility walk of the browser suite (tests/e2e/a11y.spec.ts) in Chromium ${run.browser} with axe-core ${run.axe}, over ${report.states.length} screen states of ${screens.size} screens, run ${run.at} (${run.source}); and a hand-kept review for what no tool can judge (docs/acr/manual.json), each entry with who checked, when and how.`,
    },
    { kind: 'heading', level: 2, text: 'Applicable Standards/Guidelines' },
    {
      kind: 'table',
      head: ['Standard/Guideline', 'Included In Report'],
      rows: [
        ['Web Content Accessibility Guidelines 2.2', 'Level A (Yes), Level AA (Yes), Level AAA (No)'],
        ['Revised Section 508 standards published January 18, 2017 and corrected January 22, 2018', 'Yes'],
        ['EN 301 549 Accessibility requirements for ICT products and services - V3.2.1 (2021-03)', 'Yes'],
      ],
    },
    { kind: 'heading', level: 2, text: 'Terms' },
    { kind: 'list', items: Object.entries(TERMS).map(([term, meaning]) => `${term}: ${meaning}`) },
    { kind: 'heading', level: 2, text: 'WCAG 2.2 Report' },
    ...wcagBlocks(report, 'A'),
    ...wcagBlocks(report, 'AA'),
    { kind: 'heading', level: 2, text: 'Revised Section 508 Report' },
    ...chapterBlocks(report.section508),
    { kind: 'heading', level: 2, text: 'EN 301 549 Report' },
    ...chapterBlocks(report.en301549),
    { kind: 'heading', level: 2, text: 'Appendix: automated checks' },
    {
      kind: 'table',
      head: ['Check', 'What it checks', 'WCAG', 'States', 'Findings'],
      rows: report.checks.map((c) => [c.id, c.title, c.criteria.join(', '), String(c.states.length), String(c.findings.length)]),
    },
    {
      kind: 'details',
      summary: `Appendix: the ${report.states.length} screen states checked`,
      items: report.states.map((s) => `${s.id}: ${s.screen}, ${s.label}`),
    },
  ];
}

const md = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, '<br>');

export function renderMarkdown(report: Report): string {
  const out = blocks(report).map((block) => {
    switch (block.kind) {
      case 'heading':
        return `${'#'.repeat(block.level)} ${block.text}`;
      case 'paragraph':
        return block.text;
      case 'list':
        return block.items.map((item) => `- ${item}`).join('\n');
      case 'table':
        return [
          `| ${block.head.join(' | ')} |`,
          `|${block.head.map(() => '---').join('|')}|`,
          ...block.rows.map((row) => `| ${row.map(md).join(' | ')} |`),
        ].join('\n');
      case 'details':
        return `<details><summary>${block.summary}</summary>\n\n${block.items.map((item) => `- ${item}`).join('\n')}\n\n</details>`;
    }
  });
  return `${out.join('\n\n')}\n`;
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const cell = (text: string) => text.split('\n').map(escape).join('<br>');

export function renderHtml(report: Report): string {
  const body = blocks(report).map((block) => {
    switch (block.kind) {
      case 'heading':
        return `<h${block.level}>${escape(block.text)}</h${block.level}>`;
      case 'paragraph':
        return `<p>${escape(block.text)}</p>`;
      case 'list':
        return `<ul>${block.items.map((item) => `<li>${escape(item)}</li>`).join('')}</ul>`;
      case 'table':
        return `<table><thead><tr>${block.head.map((h) => `<th scope="col">${escape(h)}</th>`).join('')}</tr></thead><tbody>${block.rows
          .map(
            (row) =>
              `<tr><th scope="row">${cell(row[0] ?? '')}</th>${row
                .slice(1)
                .map((c) => `<td>${cell(c)}</td>`)
                .join('')}</tr>`,
          )
          .join('')}</tbody></table>`;
      case 'details':
        return `<details><summary>${escape(block.summary)}</summary><ul>${block.items.map((item) => `<li>${escape(item)}</li>`).join('')}</ul></details>`;
    }
  });
  const style = `body{font:16px/1.5 system-ui,sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}table{border-collapse:collapse;width:100%;margin:1rem 0}th,td{border:1px solid #767676;padding:.5rem;text-align:start;vertical-align:top}thead th{background:#eee}`;
  return `<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(report.product.name)} Accessibility Conformance Report</title><style>${style}</style></head>\n<body>\n<main>\n${body.join('\n')}\n</main>\n</body>\n</html>\n`;
}
