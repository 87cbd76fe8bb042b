// Fastify routes whose body schemas use the plugin (Fastify's own ajv, here the consumer's 8.12).
// Fastify's compiler runs the plugins of `ajv.plugins` and then adds ajv-formats, whose url,
// email, hostname, uri, ipv4 and ipv6 would replace ours: `http://` must still be refused when
// only https is allowed (ajv-formats' url accepts it), whichever way the plugin is added.
import Fastify from 'fastify';
import addValidators, { messageFor, textsFor } from '@frontdoor/validators';

const body = {
  type: 'object',
  required: ['email', 'password', 'site'],
  properties: { email: { type: 'string', format: 'email' }, password: { type: 'string', passwordPolicy: true }, site: { type: 'string', format: 'url' } },
};
const good = { email: 'a@example.com', password: 'Passw0rd', site: 'https://x.example' };

async function server(ajv, extra = {}) {
  const app = Fastify({ ajv, ...extra });
  app.post('/signup', { schema: { body } }, async (request) => ({ ok: true, email: request.body.email }));
  const answer = async (payload) => {
    const res = await app.inject({ method: 'POST', url: '/signup', payload });
    return [res.statusCode, res.statusCode === 200 ? res.json() : res.json().message];
  };
  const out = {
    ok: await answer(good),
    http: await answer({ ...good, site: 'http://x.example' }),
    script: await answer({ ...good, site: 'javascript:alert(1)' }),
    hostname: await answer({ ...good, email: 'joe@example.c0m' }),
    password: await answer({ ...good, password: 'password' }),
  };
  await app.close();
  return out;
}

const options = { urlSchemes: ['https'] };
const out = {
  // The natural recipe: the plugin in ajv.plugins (Fastify adds ajv-formats after it).
  plugins: await server({ plugins: [[addValidators, options]] }),
  // onCreate runs after ajv-formats.
  onCreate: await server({ onCreate: (ajv) => addValidators(ajv, options) }),
  // Messages in German, and every error (ajv's own and the formats too) as text with messageFor.
  german: await server(
    { plugins: [[addValidators, { ...options, language: 'de-de' }]] },
    { schemaErrorFormatter: (errors, dataVar) => new Error(`${dataVar}${errors[0].instancePath} ${messageFor(errors[0], textsFor('de-de'))}`) },
  ),
};
console.log(JSON.stringify(out));
