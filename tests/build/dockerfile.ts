/**
 * The Dockerfile read as its instructions (continuation lines joined, comments dropped), grouped by
 * stage: what dockerfile.test.ts checks and what runtime-stage.ts assembles the runtime stage from.
 */
import fs from 'node:fs';

export interface Instruction {
  keyword: string;
  args: string;
  line: number;
}

export interface Stage {
  name: string;
  from: string;
  instructions: Instruction[];
}

export function parseDockerfile(text: string): Stage[] {
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

export const readDockerfile = (file = 'Dockerfile'): Stage[] => parseDockerfile(fs.readFileSync(file, 'utf8'));

export const instructionsOf = (stage: Stage, keyword: string): Instruction[] => stage.instructions.filter((i) => i.keyword === keyword);

export interface Copy {
  /** The stage named by --from=, or undefined for the build context. */
  from: string | undefined;
  sources: string[];
  destination: string;
  line: number;
}

/** A COPY's stage, sources and destination (no --chown/--chmod in this Dockerfile: anything else is refused). */
export function parseCopy(instruction: Instruction): Copy {
  const parts = instruction.args.split(/\s+/);
  const flags = parts.filter((p) => p.startsWith('--'));
  const rest = parts.filter((p) => !p.startsWith('--'));
  for (const flag of flags) if (!flag.startsWith('--from=')) throw new Error(`Dockerfile line ${instruction.line}: COPY ${flag} is not understood here`);
  if (rest.length < 2) throw new Error(`Dockerfile line ${instruction.line}: COPY needs a source and a destination`);
  const from = flags.find((f) => f.startsWith('--from='))?.slice('--from='.length);
  return { from, sources: rest.slice(0, -1), destination: rest.at(-1) as string, line: instruction.line };
}

/** ENV lines (`ENV A=1 \ B=2` joined) as one object. */
export function envOf(stage: Stage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { args } of instructionsOf(stage, 'ENV')) {
    for (const m of args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\S*)/g)) env[m[1] as string] = (m[2] as string).replace(/^"|"$/g, '');
  }
  return env;
}
