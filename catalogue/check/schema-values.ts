/** What the fields of a step's (inlined) JSON Schema can hold. */

/** The values an inlined field schema lists (its enum, or its allOf's). */
export function enumOfSchema(schema: unknown): string[] | undefined {
  if (schema === null || typeof schema !== 'object') return undefined;
  const node = schema as { enum?: unknown; allOf?: unknown[]; const?: unknown };
  if (Array.isArray(node.enum)) return node.enum.map(String);
  return Array.isArray(node.allOf) ? node.allOf.map(enumOfSchema).find((e) => e !== undefined) : undefined;
}

/** The values a field can take: its enum (or its allOf's), or its items' for a multiple choice. */
export function valuesOfSchema(schema: unknown): string[] | undefined {
  const own = enumOfSchema(schema);
  if (own) return own;
  const items = schema !== null && typeof schema === 'object' ? (schema as { items?: unknown }).items : undefined;
  return enumOfSchema(items);
}
