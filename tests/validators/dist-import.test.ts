import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));

describe("built package", () => {
  it("imports frontdoor/validators from a plain .mjs in node after build:validators", () => {
    execFileSync("npx", ["tsc", "-p", "tsconfig.validators.json"], { cwd: root, stdio: "pipe" });
    const out = execFileSync(process.execPath, ["tests/validators/fixtures/import-dist.mjs"], { cwd: root, encoding: "utf8" });
    expect(JSON.parse(out)).toEqual({
      good: true,
      bad: false,
      keys: ["validation.email", "validation.required"],
      sameFunctions: true,
      standaloneGood: true,
      standaloneBad: false,
    });
  }, 60_000);
});
