/**
 * The Dockerfile as text: its stages, that the runtime stage takes production dependencies only, runs
 * the compiled server as a non-root user with a readiness health check, and copies only what exists
 * and what .dockerignore lets through. runtime-stage.test.ts assembles that stage and starts it.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { instructionsOf as of, parseDockerfile, type Instruction, type Stage } from './dockerfile';

const stages = parseDockerfile(fs.readFileSync('Dockerfile', 'utf8'));
const runtime = stages.at(-1) as Stage;
const ignored = fs
  .readFileSync('.dockerignore', 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));

describe('Dockerfile', () => {
  it('has a build stage, its production dependencies, and a runtime stage last, on one Node image', () => {
    expect(stages.map((s) => s.name)).toEqual(['build', 'production-deps', 'runtime']);
    const image = /ARG NODE_IMAGE=(node:(\d+)[^\s]*)/.exec(fs.readFileSync('Dockerfile', 'utf8'));
    expect(Number(image?.[2])).toBeGreaterThanOrEqual(22);
    expect(stages.map((s) => s.from)).toEqual(['${NODE_IMAGE}', 'build', '${NODE_IMAGE}']);
    // The production dependencies are the build's, pruned: better-sqlite3 compiled once, for this image's Node.
    expect(of(stages[1] as Stage, 'RUN').map((i) => i.args)).toEqual([expect.stringMatching(/^npm prune --omit=dev\b/)]);
  });

  it('builds the app and the server in the build stage (all dependencies there)', () => {
    const build = stages[0] as Stage;
    const runs = of(build, 'RUN').map((i) => i.args);
    expect(runs.some((r) => /\bnpm ci\b/.test(r) && !r.includes('--omit=dev'))).toBe(true);
    expect(runs.some((r) => /npm run build/.test(r))).toBe(true);
  });

  it('runtime: the pruned node_modules, the compiled server and app copied from the build, no tsx, no sources, no compiler', () => {
    const runs = of(runtime, 'RUN').map((i) => i.args);
    expect(runs.join('\n')).not.toMatch(/\bnpm (ci|install)\b|apt-get|g\+\+/);
    const copies = of(runtime, 'COPY').map((i) => i.args);
    expect(copies).toContain('--from=production-deps /app/node_modules node_modules');
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
