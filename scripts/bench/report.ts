import type { Keystroke } from './measures';
import { readPageBudgets } from './budgets';

/** The tables `npm run bench` (scripts/bench.ts) prints: page loads with their ratios and targets, and typing. */

export interface Load {
  fcp: number;
  lcp: number;
  /** A visible, enabled text field and an enabled submit. */
  usable: number;
  /** The app has taken the form over (hydrated); for a page without the app, when it became usable. */
  live: number;
  tti: number;
  /** The longest task from navigation to TTI. */
  longest: number;
  tbt: number;
  transferred: number;
  /** Requests until the network was quiet (nothing in flight or starting for 2 s), and when that began (ms). */
  requests: number;
  quiet: number;
  /** Brotli bytes of scripts and styles (inline styles included) by the load event, and by the time the form was live. */
  byLoad: number;
  byLive: number;
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};
export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};

const LOAD_KEYS = ['fcp', 'lcp', 'usable', 'live', 'tti', 'longest', 'tbt', 'transferred', 'requests', 'quiet', 'byLoad', 'byLive'] as const;

/** The median of each measure per page, and each page's ratios to the two floors. */
export function summariseLoads(loads: Record<string, Load[]>) {
  const summary = Object.fromEntries(
    Object.entries(loads).map(([name, runs]) => [name, Object.fromEntries(LOAD_KEYS.map((key) => [key, median(runs.map((r) => r[key]))])) as unknown as Load]),
  ) as Record<string, Load>;
  const bareLoad = summary['bare React'];
  const plainLoad = summary['plain HTML form'];
  const ratios = (s: Load) => ({
    usableVsPlain: plainLoad ? s.usable / plainLoad.usable : undefined,
    usableVsBare: bareLoad ? s.usable / bareLoad.usable : undefined,
    fcpVsBare: bareLoad ? s.fcp / bareLoad.fcp : undefined,
    ttiVsBare: bareLoad ? s.tti / bareLoad.tti : undefined,
  });
  return { summary, ratios };
}

/** The loads' table, each run's ratios (their spread says how far the medians can be trusted on a loaded machine), and the targets of issues 27 and 39. */
export function printLoads(
  loads: Record<string, Load[]>,
  { summary, ratios }: ReturnType<typeof summariseLoads>,
  { runs: RUNS, cpu: CPU }: { runs: number; cpu: number },
): void {
  const ms = (n: number) => `${Math.round(n)}`.padStart(6);
  const kb = (n: number) => (n / 1000).toFixed(1).padStart(6);
  const x = (n: number | undefined) => (n === undefined ? '' : `${n.toFixed(2)}x`).padStart(6);
  console.log(`\nPage load, median of ${RUNS} cold loads, interleaved; CPU ${CPU}x slowdown, Fast 3G (ms; kB)\n`);
  const heads = ['FCP', 'usable', 'live', 'TTI', 'longst', 'TBT', 'quiet', 'req', 'kB', '@load', '@live'];
  console.log(`${'page'.padEnd(16)} ${heads.map((h) => h.padStart(6)).join(' ')}   usable vs plain / vs bare React`);
  for (const [name, s] of Object.entries(summary)) {
    const r = ratios(s);
    const cells = [
      ms(s.fcp),
      ms(s.usable),
      ms(s.live),
      ms(s.tti),
      ms(s.longest),
      ms(s.tbt),
      ms(s.quiet),
      ms(s.requests),
      kb(s.transferred),
      kb(s.byLoad),
      kb(s.byLive),
    ];
    console.log(`${name.padEnd(16)} ${cells.join(' ')}   ${x(r.usableVsPlain)} / ${x(r.usableVsBare)}`);
  }
  console.log(
    '\nquiet: the network is quiet from then on (nothing in flight or starting for 2 s); req: requests until then (API calls, favicon and lazy chunks included);' +
      '\nkB: bytes on the wire until quiet; @load, @live: brotli bytes of scripts and styles (inline styles included) by the load event, and by the time the form was live.',
  );
  const plainRuns = loads['plain HTML form'] ?? [];
  const bareRuns = loads['bare React'] ?? [];
  const spread = (values: number[], digits: number, unit: string) =>
    values.length ? `${median(values).toFixed(digits)}${unit} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})` : '';
  console.log(`\nPer run, interleaved (median, min–max of ${RUNS}):`);
  for (const name of ['/login', '/login before']) {
    const runs = loads[name];
    if (!runs) continue;
    const vsPlain = runs.flatMap((r, i) => (plainRuns[i] ? [r.usable / plainRuns[i].usable] : []));
    const vsBare = runs.flatMap((r, i) => (bareRuns[i] ? [r.usable / bareRuns[i].usable] : []));
    const of = (key: keyof Load) => runs.map((r) => r[key]);
    console.log(
      `${name.padEnd(16)} usable vs plain ${spread(vsPlain, 2, 'x')}, vs bare React ${spread(vsBare, 2, 'x')}; live ${spread(of('live'), 0, ' ms')};` +
        ` quiet ${spread(of('quiet'), 0, ' ms')}; longest task ${spread(of('longest'), 0, ' ms')}`,
    );
  }
  const ours = summary['/login'];
  const r = ours ? ratios(ours) : undefined;
  if (!ours || r?.usableVsPlain === undefined) return;
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  // Live, quiet and requests: /login's budget in scripts/bench/budgets.json (issue 39's figures).
  const budget = readPageBudgets()['/login'];
  if (!budget) return;
  console.log(
    `\nTargets (issue 39), /login: usable at most 1.0x the plain HTML form: ${r.usableVsPlain.toFixed(2)}x, ${met(r.usableVsPlain <= 1)};` +
      ` live by ${budget.liveMs} ms: ${Math.round(ours.live)}, ${met(ours.live <= budget.liveMs)}; quiet by ${budget.quietMs} ms: ${Math.round(ours.quiet)}, ${met(ours.quiet <= budget.quietMs)};` +
      ` at most ${budget.requests} requests: ${ours.requests}, ${met(ours.requests <= budget.requests)}; scripts and styles by the load event at most 90 kB: ${kb(ours.byLoad).trim()}, ${met(ours.byLoad <= 90_000)}` +
      ` (by the time it is live: ${kb(ours.byLive).trim()} kB).`,
  );
}

/** p50 and p95 of key-to-paint and of script per key, per subject. */
export function summariseTyping(typing: Record<string, Keystroke[]>) {
  return Object.fromEntries(
    Object.entries(typing).map(([name, keys]) => {
      const paint = keys.map((k) => k.paint);
      const script = keys.map((k) => k.script);
      return [
        name,
        {
          keys: keys.length,
          paintP50: percentile(paint, 50),
          paintP95: percentile(paint, 95),
          scriptP50: percentile(script, 50),
          scriptP95: percentile(script, 95),
        },
      ];
    }),
  );
}

export function printTyping(typingSummary: ReturnType<typeof summariseTyping>, typingPage: string, CPU: number): void {
  const ours = typingSummary[typingPage]!;
  const bareKeys = typingSummary['bare React']!;
  const plainKeys = typingSummary['plain HTML']!;
  console.log(`\nTyping, CPU ${CPU}x, one key every 120 ms (ms, p50 / p95)\n`);
  console.log(`${'subject'.padEnd(12)} ${'keys'.padStart(5)}   ${'key -> paint'.padStart(14)}   ${'script per key'.padStart(14)}`);
  for (const [name, t] of Object.entries(typingSummary)) {
    const pair = (a: number, b: number, digits: number) => `${a.toFixed(digits)} / ${b.toFixed(digits)}`.padStart(14);
    console.log(`${name.padEnd(12)} ${String(t.keys).padStart(5)}   ${pair(t.paintP50, t.paintP95, 0)}   ${pair(t.scriptP50, t.scriptP95, 1)}`);
  }
  const scriptMet = ours.scriptP95 <= 16;
  console.log(
    `\nkey -> paint: Chrome's Event Timing (keydown to the next paint, as INP measures it; 8 ms steps, under 16 counts as 8).` +
      `\nscript per key: the key's event handlers with React's render and commit of the typed value.` +
      `\nTarget p95 <= 16 ms: a keystroke's work fits in one frame — ${typingPage} script p95 ${ours.scriptP95.toFixed(1)} ms, ${scriptMet ? 'met' : 'NOT met'}.` +
      `\nkey -> paint p95: ${typingPage} ${(ours.paintP95 / bareKeys.paintP95).toFixed(2)}x bare React, ${(ours.paintP95 / plainKeys.paintP95).toFixed(2)}x plain HTML (the browser's own floor at this CPU).`,
  );
}
