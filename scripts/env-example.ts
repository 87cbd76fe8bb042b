/** `npm run env:example`: writes .env.example from the schema of the environment (server/env/example.ts). */
import { writeFileSync } from 'node:fs';
import { renderEnvExample } from '../server/env/example';

writeFileSync('.env.example', renderEnvExample());
console.log('.env.example written from server/env/variables.ts');
