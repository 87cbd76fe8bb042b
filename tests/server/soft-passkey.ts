/**
 * A software passkey (P-256, ES256) that answers WebAuthn ceremonies as an authenticator and browser
 * do, so server tests can register and sign in without Chromium: clientDataJSON with the challenge
 * and origin, authenticatorData = sha256(rpId) | flags | counter [| attested credential data], an
 * attestation of format "none", and an assertion signed over authenticatorData | sha256(clientDataJSON).
 */
import crypto from 'node:crypto';

const UP = 0x01;
const UV = 0x04;
const BE = 0x08;
const BS = 0x10;
const AT = 0x40;

/** CBOR of the few shapes an attestation object needs: a text string, a byte string, a map. */
function cborHead(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 256) return Buffer.from([(major << 5) | 24, length]);
  const b = Buffer.alloc(3);
  b[0] = (major << 5) | 25;
  b.writeUInt16BE(length, 1);
  return b;
}
const text = (s: string) => Buffer.concat([cborHead(3, Buffer.byteLength(s)), Buffer.from(s)]);
const bytes = (b: Buffer) => Buffer.concat([cborHead(2, b.length), b]);
const map = (entries: [Buffer, Buffer][]) => Buffer.concat([cborHead(5, entries.length), ...entries.flat()]);

const sha256 = (data: Buffer | string) => crypto.createHash('sha256').update(data).digest();

export interface SoftPasskeyOptions {
  /** The authenticator verifies its user (fingerprint, PIN): the UV flag. Default true. */
  userVerification?: boolean;
  /**
   * Registered as a password manager's silent creation does it (conditional create): neither user
   * presence nor verification flagged. Its later assertions flag both, as a passkey's. Default false.
   */
  silentRegistration?: boolean;
  /** A synced (backed-up) passkey: the BE and BS flags. Default true. */
  backedUp?: boolean;
  /** Discoverable (credProps.rk). Default true. */
  residentKey?: boolean;
  /** The credential id (base64url) to register with, e.g. another account's (a crafted registration). Default: 32 random bytes. */
  credentialId?: string;
}

export interface CeremonyOptions {
  origin?: string;
  rpId?: string;
}

export function softPasskey(options: SoftPasskeyOptions = {}) {
  const { userVerification = true, backedUp = true, residentKey = true, silentRegistration = false } = options;
  const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' }) as { x: string; y: string };
  // COSE key {1: 2 (EC2), 3: -7 (ES256), -1: 1 (P-256), -2: x, -3: y}.
  const cose = Buffer.concat([
    Buffer.from([0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20]),
    Buffer.from(jwk.x, 'base64url'),
    Buffer.from([0x22, 0x58, 0x20]),
    Buffer.from(jwk.y, 'base64url'),
  ]);
  const rawId = options.credentialId ? Buffer.from(options.credentialId, 'base64url') : crypto.randomBytes(32);
  const credentialId = rawId.toString('base64url');
  const aaguid = crypto.randomBytes(16);
  let counter = 0;
  /** The user handle this authenticator stored at registration (discoverable credentials give it back). */
  let userHandle: string | undefined;

  const flags = (extra: number) => UP | (userVerification ? UV : 0) | (backedUp ? BE | BS : 0) | extra;
  const counterBytes = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n);
    return b;
  };

  return {
    credentialId,
    /** The COSE public key, base64url, as the server stores it. */
    publicKeyCose: cose.toString('base64url'),
    /** The AAGUID as the server stores it (8-4-4-4-12 hex). */
    aaguid: ((h) => `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`)(aaguid.toString('hex')),
    get counter() {
      return counter;
    },
    set counter(value: number) {
      counter = value;
    },
    /** The registration JSON a browser sends for these creation options. */
    register(creation: { challenge: string; rp: { id?: string }; user: { id: string } }, ceremony: CeremonyOptions = {}): string {
      const rpId = ceremony.rpId ?? creation.rp.id ?? 'localhost';
      userHandle = creation.user.id;
      const clientDataJSON = Buffer.from(
        JSON.stringify({ type: 'webauthn.create', challenge: creation.challenge, origin: ceremony.origin ?? 'http://localhost:8080', crossOrigin: false }),
      );
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(rawId.length);
      const registrationFlags = silentRegistration ? flags(AT) & ~(UP | UV) : flags(AT);
      const authData = Buffer.concat([sha256(rpId), Buffer.from([registrationFlags]), counterBytes(counter), aaguid, idLength, rawId, cose]);
      const attestationObject = map([
        [text('fmt'), text('none')],
        [text('attStmt'), map([])],
        [text('authData'), bytes(authData)],
      ]);
      return JSON.stringify({
        id: credentialId,
        rawId: credentialId,
        type: 'public-key',
        response: {
          attestationObject: attestationObject.toString('base64url'),
          clientDataJSON: clientDataJSON.toString('base64url'),
          transports: ['internal', 'hybrid'],
        },
        clientExtensionResults: { credProps: { rk: residentKey } },
        authenticatorAttachment: 'platform',
      });
    },
    /** The assertion JSON a browser sends for these request options; the counter moves on by one (unless given). */
    assert(request: { challenge: string; rpId?: string }, ceremony: CeremonyOptions & { counter?: number; userHandle?: string | null } = {}): string {
      const rpId = ceremony.rpId ?? request.rpId ?? 'localhost';
      counter = ceremony.counter ?? counter + 1;
      const clientDataJSON = Buffer.from(
        JSON.stringify({ type: 'webauthn.get', challenge: request.challenge, origin: ceremony.origin ?? 'http://localhost:8080', crossOrigin: false }),
      );
      const authenticatorData = Buffer.concat([sha256(rpId), Buffer.from([flags(0)]), counterBytes(counter)]);
      const signature = crypto.sign('sha256', Buffer.concat([authenticatorData, sha256(clientDataJSON)]), privateKey);
      const handle = ceremony.userHandle === undefined ? (residentKey ? userHandle : undefined) : (ceremony.userHandle ?? undefined);
      return JSON.stringify({
        id: credentialId,
        rawId: credentialId,
        type: 'public-key',
        response: {
          authenticatorData: authenticatorData.toString('base64url'),
          clientDataJSON: clientDataJSON.toString('base64url'),
          signature: signature.toString('base64url'),
          ...(handle ? { userHandle: handle } : {}),
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      });
    },
  };
}
