import { createHash, createPublicKey } from 'node:crypto';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { generate } from 'selfsigned';

/**
 * A browser checks related origins (WebAuthn Related Origin Requests) by fetching
 * https://{RP ID}/.well-known/webauthn: port 443 and a certificate it trusts, even for the demo's RP ID
 * `localhost`, whose server answers http only. This forwards that one path, over https with a
 * self-signed certificate on a port of its own, to the demo server; Chromium is pointed at it with
 * `--host-resolver-rules="MAP localhost:443 127.0.0.1:<port>"` and made to accept the certificate with
 * `--ignore-certificate-errors-spki-list=<spki>` (only this certificate's key). The browser tests use
 * it (tests/e2e/passkeys-ux.spec.ts); a person trying the demo's branded.localhost passkeys runs
 * `npx tsx scripts/well-known-https.ts [demo URL]`, which prints the two flags (docs/mfa.md).
 */

export interface WellKnownForwarder {
  port: number;
  /** base64 sha256 of the certificate's public key (Chromium's --ignore-certificate-errors-spki-list). */
  spki: string;
  /** The paths asked for, in order. */
  requests: string[];
  /** Chromium's flags that send https://localhost here and trust this certificate. */
  chromiumArgs: string[];
  close(): Promise<void>;
}

export async function startWellKnownForwarder(upstream: string, port = 0): Promise<WellKnownForwarder> {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], { keySize: 2048, notAfterDate: new Date(Date.now() + 2 * 24 * 3600_000) });
  const requests: string[] = [];
  const server = https.createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    const path = req.url ?? '/';
    requests.push(path);
    if (path !== '/.well-known/webauthn') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('only /.well-known/webauthn is forwarded');
      return;
    }
    fetch(new URL(path, upstream), { headers: { host: new URL(upstream).host } })
      .then(async (answer) => {
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/octet-stream' });
        res.end(Buffer.from(await answer.arrayBuffer()));
      })
      .catch(() => res.writeHead(502, { 'content-type': 'text/plain' }).end('the demo server did not answer'));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const listening = (server.address() as AddressInfo).port;
  const spki = createHash('sha256')
    .update(createPublicKey(pems.cert).export({ type: 'spki', format: 'der' }))
    .digest('base64');
  return {
    port: listening,
    spki,
    requests,
    chromiumArgs: [`--host-resolver-rules=MAP localhost:443 127.0.0.1:${listening}`, `--ignore-certificate-errors-spki-list=${spki}`],
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const upstream = process.argv[2] ?? 'http://localhost:8080';
  const forwarder = await startWellKnownForwarder(upstream, Number(process.env.WELL_KNOWN_PORT ?? 8443));
  console.log(`https://localhost/.well-known/webauthn -> ${upstream} (listening on 127.0.0.1:${forwarder.port}; Ctrl+C ends it)`);
  console.log(`Start Chromium with: ${forwarder.chromiumArgs.map((arg) => `'${arg}'`).join(' ')}`);
}
