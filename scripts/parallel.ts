import { spawn } from 'node:child_process';

/**
 * Commands side by side on the machine's cores, for `npm run lint`, `npm run typecheck` and the
 * stages of `npm test`: each command's output is kept and handed back with its result (printed
 * whole, so two commands' lines never interleave), or passed straight through with `stream`.
 */
export interface Task {
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  /** Output straight to the terminal (a long stage running alone), not kept. */
  stream?: boolean;
}

export interface Outcome {
  name: string;
  ok: boolean;
  seconds: number;
  /** What the command printed (empty with `stream`). */
  output: string;
}

export function run(task: Task): Promise<Outcome> {
  const started = Date.now();
  const seconds = () => (Date.now() - started) / 1000;
  return new Promise((resolve) => {
    const child = spawn(task.command, task.args, { stdio: task.stream ? 'inherit' : ['ignore', 'pipe', 'pipe'], env: task.env ?? process.env });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('close', (code) => resolve({ name: task.name, ok: code === 0, seconds: seconds(), output }));
    child.on('error', (error) => resolve({ name: task.name, ok: false, seconds: seconds(), output: `${output}${String(error)}` }));
  });
}

/** Runs the tasks, at most `concurrency` at a time, in the order given; results in that order. */
export async function runAll(tasks: Task[], concurrency: number): Promise<Outcome[]> {
  const results: Outcome[] = new Array<Outcome>(tasks.length);
  let next = 0;
  const lane = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await run(tasks[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, tasks.length)) }, lane));
  return results;
}
