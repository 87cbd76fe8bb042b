/**
 * The data layer seen through a tracer (traces on, server/ops/tracing.ts): every statement and every
 * transaction is a span, the child of the request's span, on both engines. The statement's text goes
 * into the span (it holds placeholders, never a bound value); the values do not. Without traces the
 * server uses the adapter itself: this wrapper is not made at all.
 */
import type { Database, Queryable, RunResult, SqlParams } from './data.js';

/** What this layer needs of a tracer (server/ops/tracing.ts makes one): a span for `fn`, when a trace is running. */
export interface StatementTracer {
  childSpan<T>(name: string, attributes: Readonly<Record<string, string>>, fn: () => Promise<T>): Promise<T>;
}

/** OpenTelemetry's `db.system.name` of each engine. */
const SYSTEM = { sqlite: 'sqlite', postgres: 'postgresql' } as const;

/** "SELECT users", "INSERT sessions", "UPDATE counters": the statement's kind and its first table (semantic conventions' query summary). */
export function querySummary(sql: string): { operation: string; summary: string } {
  const operation = (/^\s*(\w+)/.exec(sql)?.[1] ?? 'QUERY').toUpperCase();
  const table = /\b(?:FROM|INTO|UPDATE|TABLE)\s+"?([A-Za-z_]\w*)/i.exec(sql)?.[1];
  return { operation, summary: table ? `${operation} ${table}` : operation };
}

export function tracedDatabase(inner: Database, tracer: StatementTracer): Database {
  const system = SYSTEM[inner.engine];
  // Transactions hand out their own `t`; wipe(t) needs the adapter's again.
  const unwrapped = new WeakMap<Queryable, Queryable>();
  const statement = <T>(sql: string, run: () => Promise<T>): Promise<T> => {
    const { operation, summary } = querySummary(sql);
    return tracer.childSpan(summary, { 'db.system.name': system, 'db.operation.name': operation, 'db.query.text': sql }, run);
  };
  const traced = (q: Queryable): Queryable => {
    const view: Queryable = {
      engine: q.engine,
      get: <T>(sql: string, params?: SqlParams) => statement(sql, () => q.get<T>(sql, params)),
      all: <T>(sql: string, params?: SqlParams) => statement(sql, () => q.all<T>(sql, params)),
      run: (sql: string, params?: SqlParams): Promise<RunResult> => statement(sql, () => q.run(sql, params)),
    };
    unwrapped.set(view, q);
    return view;
  };
  const outside = traced(inner);
  return {
    ...outside,
    description: inner.description,
    tx: (fn, options) =>
      tracer.childSpan('transaction', { 'db.system.name': system, 'db.operation.name': 'TRANSACTION' }, () => inner.tx((t) => fn(traced(t)), options)),
    migrate: () => inner.migrate(),
    ping: (timeoutMs) => inner.ping(timeoutMs),
    dataTables: () => inner.dataTables(),
    wipe: (t) => inner.wipe(t === undefined ? undefined : (unwrapped.get(t) ?? t)),
    close: () => inner.close(),
  };
}
