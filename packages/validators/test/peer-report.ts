/**
 * `npm run peer`: the peer suite's report (see peer-suite.ts) for the
 * source, as the original runner printed it: counts per target, every
 * disagreement with its source test, the exclusions by reason.
 */
import Ajv from 'ajv';
import addValidators from '../src/index.js';
import { caseId, classify, EXCEPTIONS, loadPeerData } from './peer-suite.js';

const data = loadPeerData();
const { counted, excluded, duplicates, conflicts } = classify(data);
const ajv = addValidators(new Ajv({ allErrors: true }));
const q = (s: string) => (JSON.stringify(s).length > 90 ? `${JSON.stringify(s).slice(0, 60)}…" (${s.length} chars)` : JSON.stringify(s));

const stats = new Map<string, { pass: number; fail: number; excluded: number }>();
const stat = (t: string) => stats.get(t) ?? (stats.set(t, { pass: 0, fail: 0, excluded: 0 }), stats.get(t)!);
const failures: string[] = [];
for (const k of counted) {
  const ours = ajv.validate(k.schema, k.case.input) === true;
  if (ours === k.case.expected) stat(k.target).pass++;
  else {
    stat(k.target).fail++;
    const id = caseId(k);
    failures.push(
      `  ${id}  peer: ${k.case.expected ? 'valid' : 'invalid'}  ours: ${ours ? 'valid' : 'invalid'}${EXCEPTIONS[id] ? '  (named exception)' : ''}\n      from ${k.case.from}`,
    );
  }
}
for (const [t, reasons] of excluded) for (const list of reasons.values()) stat(t).excluded += list.length;

console.log(
  `peer suite: validator.js ${data.validatorjs.commit.slice(0, 12)}, ajv-formats ${data.ajvFormats.commit.slice(0, 12)}${data.suite ? `, JSON-Schema-Test-Suite ${data.suite.commit.slice(0, 12)}` : ''}; ${data.cases.length} cases\n`,
);
console.log(`${'target'.padEnd(22)}${'pass'.padStart(6)}${'fail'.padStart(6)}${'excluded'.padStart(10)}`);
for (const [t, s] of [...stats].sort())
  console.log(`${t.padEnd(22)}${String(s.pass).padStart(6)}${String(s.fail).padStart(6)}${String(s.excluded).padStart(10)}`);
console.log(`\ncounted ${counted.length} (after ${duplicates} duplicates${conflicts.length ? `, ${conflicts.length} peer self-conflicts` : ''})`);
console.log(`\ndisagreements (${failures.length}):\n${failures.join('\n')}`);
console.log('\nexclusions by target and reason:');
for (const [t, reasons] of excluded) {
  for (const [reason, list] of reasons)
    console.log(
      `  [${t}] ${list.length} × ${reason}\n      ${list
        .slice(0, 3)
        .map((c) => `${q(c.input)}→${c.expected ? 'valid' : 'invalid'}`)
        .join(', ')}`,
    );
}
const failed = failures.length;
console.log(`\n${counted.length - failed} passed, ${failed} failed`);
