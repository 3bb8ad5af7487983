// The environment git runs in, for any transport: the server's, minus GIT_* variables that
// would redirect it (another repository, another object store), plus the protocol version the
// client asked for (HTTP's Git-Protocol header, SSH's GIT_PROTOCOL variable), checked to be
// plain `key=value` pairs.
const PROTOCOL = /^[A-Za-z0-9=:._-]{1,200}$/;

export function gitEnvironment(protocol: string | undefined, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_')) env[k] = v;
  if (protocol && PROTOCOL.test(protocol)) env.GIT_PROTOCOL = protocol;
  return { ...env, ...extra };
}

/** Whether the client asked for protocol version 2. */
export function wantsProtocolV2(env: NodeJS.ProcessEnv): boolean {
  return /(^|:)version=2(:|$)/.test(env.GIT_PROTOCOL ?? '');
}
