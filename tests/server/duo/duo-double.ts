/**
 * A local double of Duo's OIDC Auth API (HTTPS, a test certificate that only the returned agent
 * trusts: the SDK pins Duo's CAs). It checks each request as Duo documents it: health check and token
 * calls are form posts with client_id and a client_assertion JWT (HS512 with the client secret, iss =
 * sub = client ID, aud = the endpoint's URL, jti, exp); the authorize URL carries a request JWT (HS512)
 * with duo_uname, state and redirect_uri; the token call has grant_type=authorization_code, the code,
 * the redirect_uri and the client assertion type. It answers an id_token signed with the client
 * secret, as Duo does. `?test_decision=deny` on the authorize URL makes Duo deny.
 */
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { jwtVerify, SignJWT } from 'jose';
import { generate } from 'selfsigned';

export const CLIENT_ID = 'DIXXXXXXXXXXXXXXXXXX';
export const SECRET = 'deadbeefdeadbeefdeadbeefdeadbeefdeadbeef';
const key = new TextEncoder().encode(SECRET);

interface Issued {
  username: string;
  decision: 'allow' | 'deny';
}

export async function startDuoDouble(REDIRECT: string) {
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keySize: 2048,
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  const problems: string[] = [];
  const codes = new Map<string, Issued>();
  let healthy = true;
  let host = '';
  const checkAssertion = async (assertion: string | null, endpoint: string) => {
    if (!assertion) return problems.push(`${endpoint}: no client_assertion`);
    try {
      const { payload, protectedHeader } = await jwtVerify(assertion, key, {
        algorithms: ['HS512'],
        audience: `https://${host}${endpoint}`,
        issuer: CLIENT_ID,
        subject: CLIENT_ID,
      });
      if (protectedHeader.alg !== 'HS512' || typeof payload.jti !== 'string' || typeof payload.exp !== 'number') problems.push(`${endpoint}: assertion claims`);
    } catch (error) {
      problems.push(`${endpoint}: ${(error as Error).message}`);
    }
    return undefined;
  };
  const server = https.createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', `https://${host}`);
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method === 'POST' && url.pathname === '/oauth/v1/health_check') {
        if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) problems.push('health_check: content type');
        if (form.get('client_id') !== CLIENT_ID) problems.push('health_check: client_id');
        await checkAssertion(form.get('client_assertion'), '/oauth/v1/health_check');
        return healthy
          ? json(200, { stat: 'OK', response: { timestamp: Math.floor(Date.now() / 1000) } })
          : json(500, { stat: 'FAIL', code: 50000, timestamp: 0, message: 'Service unavailable', message_detail: 'maintenance' });
      }
      if (req.method === 'GET' && url.pathname === '/oauth/v1/authorize') {
        // The browser at Duo: the request JWT says who and where to return; the test says allow or deny.
        try {
          const { payload } = await jwtVerify(url.searchParams.get('request') ?? '', key, {
            algorithms: ['HS512'],
            audience: `https://${host}`,
            issuer: CLIENT_ID,
          });
          if (url.searchParams.get('client_id') !== CLIENT_ID || url.searchParams.get('response_type') !== 'code' || url.searchParams.get('scope') !== 'openid')
            problems.push('authorize: query');
          if (payload.redirect_uri !== REDIRECT || url.searchParams.get('redirect_uri') !== REDIRECT) problems.push('authorize: redirect_uri');
          const code = `code-${codes.size + 1}`;
          codes.set(code, { username: String(payload.duo_uname), decision: url.searchParams.get('test_decision') === 'deny' ? 'deny' : 'allow' });
          res.writeHead(302, { Location: `${REDIRECT}?duo_code=${code}&state=${encodeURIComponent(String(payload.state))}` });
          return res.end();
        } catch (error) {
          problems.push(`authorize: ${(error as Error).message}`);
          return json(400, { error: 'invalid_request' });
        }
      }
      if (req.method === 'POST' && url.pathname === '/oauth/v1/token') {
        if (form.get('grant_type') !== 'authorization_code') problems.push('token: grant_type');
        if (form.get('redirect_uri') !== REDIRECT) problems.push('token: redirect_uri');
        if (form.get('client_assertion_type') !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer') problems.push('token: client_assertion_type');
        await checkAssertion(form.get('client_assertion'), '/oauth/v1/token');
        const issued = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        if (!issued)
          return json(400, { error: 'invalid_grant', error_description: 'The provided authorization grant or refresh token is invalid, expired, revoked' });
        const now = Math.floor(Date.now() / 1000);
        const idToken = await new SignJWT({
          preferred_username: issued.username,
          auth_time: now,
          auth_result: { result: issued.decision, status: issued.decision, status_msg: issued.decision === 'allow' ? 'Login Successful' : 'Login denied' },
          auth_context: { result: issued.decision, factor: 'duo_push', auth_device: { name: 'iPhone', ip: null, location: {} } },
        })
          .setProtectedHeader({ alg: 'HS512' })
          .setIssuer(`https://${host}/oauth/v1/token`)
          .setAudience(CLIENT_ID)
          .setSubject(issued.username)
          .setIssuedAt(now)
          .setExpirationTime(now + 300)
          .sign(key);
        return json(200, { id_token: idToken, access_token: 'at', expires_in: 3600, token_type: 'Bearer' });
      }
      json(404, {});
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    host,
    problems,
    agent: new https.Agent({ ca: pems.cert }),
    setHealthy: (v: boolean) => (healthy = v),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
