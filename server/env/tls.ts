import fs from 'node:fs';

/**
 * TLS on the server's own port (TLS_CERT_FILE, TLS_KEY_FILE): with both set the server terminates TLS
 * itself and speaks HTTP/2 (HTTP/1.1 still answered for clients without it), so a browser loads a
 * page's scripts over one connection instead of HTTP/1.1's six (docs/deploy.md). Behind a proxy that
 * terminates TLS, leave them unset: the proxy speaks HTTP/2 to browsers.
 */
export interface TlsFiles {
  cert: Buffer;
  key: Buffer;
}

/** The certificate and key named by the environment, or undefined when neither is set; each problem one line. */
export function readTlsFiles(
  env: NodeJS.ProcessEnv,
  problems: string[],
  read: (file: string) => Buffer = (file) => fs.readFileSync(file),
): TlsFiles | undefined {
  const certFile = env.TLS_CERT_FILE ?? '';
  const keyFile = env.TLS_KEY_FILE ?? '';
  if (certFile === '' && keyFile === '') return undefined;
  if (certFile === '' || keyFile === '') {
    problems.push('TLS_CERT_FILE and TLS_KEY_FILE go together: set both (the server then speaks HTTPS and HTTP/2 itself) or neither.');
    return undefined;
  }
  const load = (name: string, file: string): Buffer | undefined => {
    try {
      const pem = read(file);
      if (!pem.toString('utf8').includes('-----BEGIN ')) problems.push(`${name} (${file}) is not a PEM file.`);
      return pem;
    } catch (error) {
      problems.push(`${name} (${file}) cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`);
      return undefined;
    }
  };
  const cert = load('TLS_CERT_FILE', certFile);
  const key = load('TLS_KEY_FILE', keyFile);
  return cert && key ? { cert, key } : undefined;
}
