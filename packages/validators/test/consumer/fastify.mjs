// A Fastify route whose body schema uses the plugin (Fastify's own ajv, here the consumer's 8.12).
import Fastify from 'fastify';
import addValidators from '@frontdoor/validators';

const app = Fastify({ ajv: { plugins: [[addValidators, { keywords: ['notBlank', 'passwordPolicy'] }]] } });
app.post(
  '/signup',
  {
    schema: {
      body: {
        type: 'object',
        required: ['email', 'password', 'site'],
        properties: { email: { type: 'string', format: 'email' }, password: { type: 'string', passwordPolicy: true }, site: { type: 'string', format: 'url' } },
      },
    },
  },
  async (request) => ({ ok: true, email: request.body.email }),
);
const ok = await app.inject({ method: 'POST', url: '/signup', payload: { email: 'a@example.com', password: 'Passw0rd', site: 'https://example.com' } });
const bad = await app.inject({ method: 'POST', url: '/signup', payload: { email: 'a@example.com', password: 'Passw0rd', site: 'javascript:alert(1)' } });
console.log(JSON.stringify({ ok: [ok.statusCode, ok.json()], bad: [bad.statusCode, bad.json().message] }));
await app.close();
