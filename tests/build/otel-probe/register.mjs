// `node --import ./register.mjs …`: every @opentelemetry module the process resolves is reported on
// stderr as "opentelemetry-loaded <url>" (tests/build/runtime-stage.test.ts: none without a collector).
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
