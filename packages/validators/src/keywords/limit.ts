/**
 * `limit: "name" | "organization" | "defaultItem"` — the input length limits
 * of SPEC §9 (name 150, organization 1000, default item 150), counted in
 * Unicode code points like ajv's maxLength. The same limits are reusable
 * $defs in the app's schemas/defs/limits.json (plain maxLength).
 * Message key: validation.maxLength, params { limit: n } → { maxCount: n }.
 */
import { _ } from "ajv";
import type { CodeKeywordDefinition, ErrorObject, KeywordCxt } from "ajv";
import { codePointLengthFunc } from "./codePoints.js";

export const limits = { name: 150, organization: 1000, defaultItem: 150 } as const;
export type LimitName = keyof typeof limits;

export type LimitError = ErrorObject<"limit", { limit: number; name: LimitName }, LimitName>;

export const limit: CodeKeywordDefinition = {
  keyword: "limit",
  type: "string",
  schemaType: "string",
  metaSchema: { type: "string", enum: Object.keys(limits) },
  error: {
    message: "validation.maxLength",
    params: ({ schema }) => _`{limit: ${limits[schema as LimitName]}, name: ${schema as string}}`,
  },
  code(cxt: KeywordCxt) {
    const { gen, data } = cxt;
    const max = limits[cxt.schema as LimitName];
    // Code points ≤ UTF-16 units ≤ 2 × code points: only lengths between max and 2 × max need counting.
    cxt.fail(_`${data}.length > ${max} && (${data}.length > ${2 * max} || ${codePointLengthFunc(gen)}(${data}) > ${max})`);
  },
};
