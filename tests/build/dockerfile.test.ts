/**
 * Docker does not run on the CI machines, so the Dockerfile is checked as text: its stages, that the
 * runtime stage installs production dependencies only, runs the compiled server as a non-root user
 * with a readiness health check, and copies only what exists and what .dockerignore lets through.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

interface Instruction {
  keyword: string;
  args: string;
  line: number;
}

interface Stage {
  name: string;
  from: string;
  instructions: Instruction[];
}

/** Instructions with line continuations joined and comments dropped, grouped by FROM. */
function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const start = i;
    let line = lines[i] as string;
    if (/^\s*(#|$)/.test(line)) continue;
    while (line.endsWith('\\') && i + 1 < lines.length) line = `${line.slice(0, -1)} ${(lines[++i] as string).trim()}`;
    const m = /^\s*([A-Za-z]+)\s+(.*)$/.exec(line);
    if (!m) throw new Error(`Dockerfile line ${start + 1}: not an instruction: ${line}`);
    const instruction = { keyword: (m[1] as string).toUpperCase(), args: (m[2] as string).trim(), line: start + 1 };
    if (instruction.keyword === 'FROM') {
      const from = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(instruction.args);
      stages.push({ name: from?.[2] ?? String(stages.length), from: from?.[1] ?? '', instructions: [] });
    } else if (instruction.keyword !== 'ARG' || stages.length > 0) {
      const stage = stages.at(-1);
      if (!stage) throw new Error(`Dockerfile line ${start + 1}: ${instruction.keyword} before FROM`);
      stage.instructions.push(instruction);
    }
  }
  return stages;
}

const stages = parseDockerfile(fs.readFileSync('Dockerfile', 'utf8'));
const runtime = stages.at(-1) as Stage;
const of = (stage: Stage, keyword: string) => stage.instructions.filter((i) => i.keyword === keyword);
const ignored = fs
  .readFileSync('.dockerignore', 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));

describe('Dockerfile', () => {
  it('has a build stage and a runtime stage last, on one Node image of at least 20.19', () => {
    expect(stages.map((s) => s.name)).toEqual(['build', 'runtime']);
    const image = /ARG NODE_IMAGE=(node:(\d+)[^\s]*)/.exec(fs.readFileSync('Dockerfile', 'utf8'));
    expect(Number(image?.[2])).toBeGreaterThanOrEqual(22);
    for (const s of stages) expect(s.from).toBe('${NODE_IMAGE}');
  });

  it('builds the app and the server in the build stage (all dependencies there)', () => {
    const build = stages[0] as Stage;
    const runs = of(build, 'RUN').map((i) => i.args);
    expect(runs.some((r) => /\bnpm ci\b/.test(r) && !r.includes('--omit=dev'))).toBe(true);
    expect(runs.some((r) => /npm run build/.test(r))).toBe(true);
  });

  it('runtime: npm ci --omit=dev, the compiled server and app copied from the build stage, no tsx and no sources', () => {
    const runs = of(runtime, 'RUN').map((i) => i.args);
    expect(runs.some((r) => /\bnpm ci --omit=dev\b/.test(r))).toBe(true);
    const copies = of(runtime, 'COPY').map((i) => i.args);
    expect(copies).toContain('--from=build /app/dist/server dist/server');
    expect(copies).toContain('--from=build /app/dist/app dist/app');
    for (const c of copies) expect(c, c).not.toMatch(/^\.\s|(^|\s)(server|src|tests)(\/|\s|$)/);
    expect(JSON.stringify(runtime.instructions)).not.toMatch(/\btsx\b/);
    expect(of(runtime, 'CMD').map((i) => i.args)).toEqual(['["node", "dist/server/main.js"]']);
  });

  it('runtime runs as a non-root user, with a /readyz health check and SIGTERM', () => {
    const users = of(runtime, 'USER');
    expect(users).toHaveLength(1);
    expect(users[0]?.args).not.toMatch(/^(root|0)(:|$)/);
    const cmd = of(runtime, 'CMD')[0] as Instruction;
    expect((users[0] as Instruction).line).toBeLessThan(cmd.line);
    // Nothing runs as root after USER (a later USER root would undo it).
    const after = runtime.instructions.filter((i) => i.line > (users[0] as Instruction).line);
    expect(after.map((i) => i.keyword)).not.toContain('RUN');
    const health = of(runtime, 'HEALTHCHECK');
    expect(health).toHaveLength(1);
    expect(health[0]?.args).toMatch(/\/readyz/);
    expect(of(runtime, 'STOPSIGNAL').map((i) => i.args)).toEqual(['SIGTERM']);
    // The JSON (exec) forms parse.
    for (const i of [...of(runtime, 'CMD'), ...of(runtime, 'VOLUME')]) expect(() => JSON.parse(i.args), i.args).not.toThrow();
    expect(JSON.parse((health[0]?.args ?? '').replace(/^.*?CMD\s+/, ''))).toEqual(['node', '-e', expect.stringContaining('/readyz')]);
  });

  it('copies only files that exist and that .dockerignore lets into the context; COPY --from names an earlier stage', () => {
    const names = stages.map((s) => s.name);
    for (const [index, stage] of stages.entries()) {
      for (const copy of of(stage, 'COPY')) {
        const parts = copy.args.split(/\s+/);
        const from = parts.find((p) => p.startsWith('--from='));
        const sources = parts.filter((p) => !p.startsWith('--')).slice(0, -1);
        if (from) {
          expect(names.slice(0, index), copy.args).toContain(from.slice('--from='.length));
          continue;
        }
        for (const source of sources) {
          if (source === '.') continue;
          expect(fs.existsSync(source), `${source} (line ${copy.line})`).toBe(true);
          expect(ignored.filter((pattern) => source === pattern || source.startsWith(`${pattern}/`)), source).toEqual([]);
        }
      }
    }
  });

  it('.dockerignore keeps node_modules, .git, builds and local data out of the context', () => {
    for (const entry of ['.git', '**/node_modules', 'dist', 'build', 'data', 'packages/*/dist']) expect(ignored).toContain(entry);
  });
});
