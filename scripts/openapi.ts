import { writeFileSync } from 'node:fs';
import { buildOpenApiDocument } from '../server/openapi';

/** `npm run openapi [-- file]`: the OpenAPI 3.1 document of schemas/api (as GET /ws/openapi.json serves it), to stdout or a file. */
const text = `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
const file = process.argv[2];
if (file) {
  writeFileSync(file, text);
  console.log(`OpenAPI 3.1 document written to ${file}`);
} else {
  process.stdout.write(text);
}
