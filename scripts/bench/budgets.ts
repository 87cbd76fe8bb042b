import { readFileSync } from 'node:fs';

/**
 * The bench's per-route budgets (scripts/bench/budgets.json, issue 39): requests before the network is
 * quiet, when it is quiet and when the form is live, against the median of the page's loads. Printed
 * as met or not: a bench on a shared machine is no test (tests/e2e/first-paint.spec.ts counts /login's
 * requests without timing them).
 */
interface RouteBudget {
  requests: number;
  quietMs: number;
  liveMs: number;
}

const FILE = new URL('./budgets.json', import.meta.url);

export function readPageBudgets(): Record<string, RouteBudget> {
  return (JSON.parse(readFileSync(FILE, 'utf8')) as { routes: Record<string, RouteBudget> }).routes;
}

/** What a budget is checked against: a page's medians (report.ts `Load`). */
interface Measured {
  requests: number;
  quiet: number;
  live: number;
}

/** One line per route with a budget and loads: each measure against its budget. */
export function printPageBudgets(summary: Record<string, Measured>, budgets = readPageBudgets()): void {
  const lines = Object.entries(budgets).flatMap(([route, budget]) => {
    const load = summary[route];
    if (!load) return [];
    const check = (name: string, value: number, limit: number, unit = '') =>
      `${name} ${Math.round(value)}${unit} (budget ${limit}${unit}) ${value <= limit ? 'met' : 'NOT met'}`;
    return [
      `${route.padEnd(10)} ${[check('requests', load.requests, budget.requests), check('quiet', load.quiet, budget.quietMs, ' ms'), check('live', load.live, budget.liveMs, ' ms')].join('; ')}`,
    ];
  });
  if (lines.length) console.log(`\nBudgets per route (scripts/bench/budgets.json), medians:\n${lines.join('\n')}`);
}
