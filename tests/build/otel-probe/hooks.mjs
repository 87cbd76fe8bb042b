// Module resolution hooks (node:module register, from register.mjs): report, then resolve as usual.
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (resolved.url.includes('/@opentelemetry/')) process.stderr.write(`opentelemetry-loaded ${resolved.url}\n`);
  return resolved;
}
