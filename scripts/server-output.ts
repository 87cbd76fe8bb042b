/**
 * What a started server's output says, for the tools and tests that start one (with PORT=0 the system
 * picks the port): the address of its start-up line.
 */

/** The address of the start-up line `frontdoor: http://localhost:PORT`, or undefined before it came. */
export function listeningAddress(output: string): string | undefined {
  return /^frontdoor: (http:\/\/\S+)/m.exec(output)?.[1];
}

/** The port of that address. */
export function listeningPort(output: string): number | undefined {
  const port = /:(\d+)$/.exec(listeningAddress(output) ?? '')?.[1];
  return port === undefined ? undefined : Number(port);
}
