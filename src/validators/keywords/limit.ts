/**
 * `limit: "name" | "organization" | "defaultItem"` — the input length limits
 * of SPEC §9 (name 150, organization 1000, default item 150). A macro
 * keyword: it expands to `{ maxLength: <n> }`, so the error is ajv's
 * maxLength (key validation.maxLength, { maxCount: n }). The same limits are
 * reusable $defs in schemas/defs/limits.json.
 */
import type { MacroKeywordDefinition } from "ajv";

export const limits = { name: 150, organization: 1000, defaultItem: 150 } as const;
export type LimitName = keyof typeof limits;

export const limit: MacroKeywordDefinition = {
  keyword: "limit",
  type: "string",
  schemaType: "string",
  metaSchema: { type: "string", enum: Object.keys(limits) },
  macro: (schema: LimitName) => ({ maxLength: limits[schema] }),
};
