/**
 * The image's runtime stage assembled on this machine, COPY line by COPY line of the Dockerfile, into
 * a folder outside the repository (so that nothing resolves from the repository's own node_modules):
 * - a COPY from the build context takes the repository's file or folder;
 * - a COPY --from=<stage> of /app/… takes the repository's (the build stage is this checkout after
 *   `npm ci` and `npm run build`: the same package-lock.json, the same dist/);
 * - /app/node_modules of a stage that ran `npm prune --omit=dev` is what that prune leaves: every
 *   package of package-lock.json not marked `dev`, hard-linked from node_modules (the compiled
 *   better-sqlite3 included), the workspace links as links. That is the tree npm computes from the
 *   lock file, without the minute a real `npm ci --omit=dev` spends compiling better-sqlite3 again.
 * Any other instruction that would change files (RUN beyond creating the data folder, ADD) is refused,
 * so the Dockerfile cannot grow a step this copy does not reproduce.
 */
import fs from 'node:fs';
import path from 'node:path';
import { envOf, instructionsOf, parseCopy, type Copy, type Stage } from './dockerfile';

const WORKDIR = '/app';

interface LockEntry {
  dev?: boolean;
  optional?: boolean;
  devOptional?: boolean;
  link?: boolean;
  resolved?: string;
}

/** The lock file's packages a production install keeps: installed folders, and workspace links with their targets. */
export function productionPackages(root: string): { folders: string[]; links: Array<{ at: string; to: string }> } {
  const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const folders: string[] = [];
  const links: Array<{ at: string; to: string }> = [];
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (!key.includes('node_modules/') || entry.dev) continue;
    if (entry.link) links.push({ at: key, to: entry.resolved ?? '' });
    // An optional package for another platform (a prebuilt binary for macOS …) is not installed here.
    else if (fs.existsSync(path.join(root, key))) folders.push(key);
    else if (!entry.optional && !entry.devOptional) throw new Error(`${key} is a production dependency but is not installed: run npm ci`);
  }
  return { folders, links };
}

/** Files hard-linked (copied across file systems); a package's nested node_modules is left out (the lock file lists those apart). */
function linkTree(from: string, to: string): void {
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') linkTree(source, target);
    } else if (entry.isSymbolicLink()) {
      fs.symlinkSync(fs.readlinkSync(source), target);
    } else {
      try {
        fs.linkSync(source, target);
      } catch {
        fs.copyFileSync(source, target);
      }
    }
  }
}

function pruned(stages: Stage[], name: string): boolean {
  const stage = stages.find((s) => s.name === name);
  return stage !== undefined && instructionsOf(stage, 'RUN').some((r) => /^npm prune --omit=dev\b/.test(r.args));
}

/** Where a COPY source comes from in this checkout. */
function sourceOf(root: string, copy: Copy, source: string): string {
  if (copy.from === undefined) return path.join(root, source);
  if (!source.startsWith(`${WORKDIR}/`)) throw new Error(`Dockerfile line ${copy.line}: ${source} is outside ${WORKDIR}, the build stage's checkout`);
  return path.join(root, source.slice(WORKDIR.length + 1));
}

function copyInto(root: string, dir: string, stages: Stage[], copy: Copy): void {
  const many = copy.sources.length > 1 || copy.destination.endsWith('/');
  for (const source of copy.sources) {
    const destination = path.join(dir, copy.destination, many ? path.basename(source) : '');
    const from = sourceOf(root, copy, source);
    if (copy.from !== undefined && source === `${WORKDIR}/node_modules`) {
      if (!pruned(stages, copy.from)) throw new Error(`Dockerfile line ${copy.line}: node_modules from ${copy.from}, which did not run npm prune --omit=dev`);
      const { folders, links } = productionPackages(root);
      for (const folder of folders) linkTree(path.join(root, folder), path.join(destination, folder.slice('node_modules/'.length)));
      for (const link of links) {
        const at = path.join(destination, link.at.slice('node_modules/'.length));
        fs.mkdirSync(path.dirname(at), { recursive: true });
        fs.symlinkSync(path.relative(path.dirname(at), path.join(dir, link.to)), at);
      }
    } else if (!fs.existsSync(from)) {
      throw new Error(`Dockerfile line ${copy.line}: ${source} does not exist here (run npm run build first)`);
    } else {
      fs.cpSync(from, destination, { recursive: true });
    }
  }
}

export interface RuntimeStage {
  /** The assembled folder (the image's /app). */
  dir: string;
  /** The stage's ENV. */
  env: Record<string, string>;
  /** Its CMD (exec form). */
  command: string[];
}

/** Assembles the last stage of the Dockerfile into dir. */
export function assembleRuntimeStage(root: string, stages: Stage[], dir: string): RuntimeStage {
  const runtime = stages.at(-1) as Stage;
  for (const instruction of runtime.instructions) {
    if (instruction.keyword === 'WORKDIR' && instruction.args !== WORKDIR) throw new Error(`the runtime stage works in ${instruction.args}, not ${WORKDIR}`);
    if (instruction.keyword === 'ADD') throw new Error(`Dockerfile line ${instruction.line}: ADD is not reproduced here; use COPY`);
    // The data folder for SQLite (this test runs on PostgreSQL): nothing else may be made by a RUN.
    if (instruction.keyword === 'RUN' && !/^mkdir -p \/app\/data && chown node:node \/app\/data$/.test(instruction.args))
      throw new Error(`Dockerfile line ${instruction.line}: RUN ${instruction.args} is not reproduced by tests/build/runtime-stage.ts`);
    if (instruction.keyword === 'COPY') copyInto(root, dir, stages, parseCopy(instruction));
  }
  const cmd = instructionsOf(runtime, 'CMD').at(-1);
  return { dir, env: envOf(runtime), command: JSON.parse(cmd?.args ?? '[]') as string[] };
}
