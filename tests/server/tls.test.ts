/**
 * TLS on the server's own port (TLS_CERT_FILE, TLS_KEY_FILE; server/env/tls.ts): with a certificate
 * the server speaks HTTP/2 (one connection for a page's chunks) and still answers HTTP/1.1 over TLS;
 * the two variables go together and a file that cannot be used stops the start with one line.
 */
import http2 from 'node:http2';
import https from 'node:https';
import type { FastifyInstance } from 'fastify';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTlsFiles } from '../../server/env/tls';
import { makeApp } from './helpers';

let app: FastifyInstance;
let origin: string;
let ca: string;

beforeAll(async () => {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048,
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }] }],
  });
  ca = pems.cert;
  app = await makeApp({ tls: { cert: Buffer.from(pems.cert), key: Buffer.from(pems.private) } });
  await app.listen({ host: '127.0.0.1', port: 0 });
  origin = `https://localhost:${(app.server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await app?.close();
});

describe('the server with TLS_CERT_FILE and TLS_KEY_FILE', () => {
  it('answers HTTP/2', async () => {
    const session = http2.connect(origin, { ca });
    try {
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const stream = session.request({ ':path': '/healthz' });
        let status = 0;
        let body = '';
        stream.on('response', (headers) => (status = Number(headers[':status'])));
        stream.on('data', (chunk: Buffer) => (body += chunk.toString()));
        stream.on('end', () => resolve({ status, body }));
        stream.on('error', reject);
        stream.end();
      });
      expect(answer.status).toBe(200);
      expect(answer.body).toContain('ok');
    } finally {
      session.close();
    }
  });

  it('still answers HTTP/1.1 over TLS (clients without HTTP/2)', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      https
        .get(`${origin}/healthz`, { ca }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        })
        .on('error', reject);
    });
    expect(status).toBe(200);
  });
});

describe('reading TLS_CERT_FILE and TLS_KEY_FILE', () => {
  const pem = Buffer.from('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
  const read = (file: string) => {
    if (file.endsWith('missing.pem')) throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
    return file.endsWith('.txt') ? Buffer.from('not a certificate') : pem;
  };

  it('neither set: plain HTTP, no problem', () => {
    const problems: string[] = [];
    expect(readTlsFiles({}, problems, read)).toBeUndefined();
    expect(problems).toEqual([]);
  });

  it('both set and readable: the two files', () => {
    const problems: string[] = [];
    expect(readTlsFiles({ TLS_CERT_FILE: '/tls/cert.pem', TLS_KEY_FILE: '/tls/key.pem' }, problems, read)).toEqual({ cert: pem, key: pem });
    expect(problems).toEqual([]);
  });

  it('one without the other, a missing file and a file that is not PEM: one line each', () => {
    const alone: string[] = [];
    expect(readTlsFiles({ TLS_CERT_FILE: '/tls/cert.pem' }, alone, read)).toBeUndefined();
    expect(alone).toEqual([expect.stringMatching(/^TLS_CERT_FILE and TLS_KEY_FILE go together/)]);
    const broken: string[] = [];
    expect(readTlsFiles({ TLS_CERT_FILE: '/tls/missing.pem', TLS_KEY_FILE: '/tls/key.txt' }, broken, read)).toBeUndefined();
    expect(broken).toEqual(['TLS_CERT_FILE (/tls/missing.pem) cannot be read: ENOENT.', 'TLS_KEY_FILE (/tls/key.txt) is not a PEM file.']);
  });
});
