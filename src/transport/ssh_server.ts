// git over SSH inside the Wharf process (the ssh2 package's server), on WHARF_SSH_PORT:
// `git clone ssh://git@host:2222/group/project.git` and friends, as GitLab's sshd and
// gitlab-shell served them.
// - Host key: made on first start and kept under db/ (ssh_host_key.ts).
// - Authentication: user `git`, public keys only, against users' keys and deploy keys
//   (ssh_auth.ts); at most MAX_AUTH_ATTEMPTS tries and LOGIN_GRACE_MS to finish, as sshd's
//   MaxAuthTries and LoginGraceTime.
// - Sessions: `exec` of git-upload-pack, git-receive-pack or git-upload-archive on a project
//   (ssh_exec.ts); a shell gets GitLab's greeting ("Welcome to GitLab, @user!") and closes;
//   `env` is accepted for GIT_PROTOCOL only, a pty is granted (for the greeting), everything
//   else (subsystems such as sftp, port forwarding, agent or X11 forwarding) is refused.
//
// Several worker processes: each calls listen() on the same port, as it does for HTTP. Under
// node:cluster the primary owns the one listening socket and hands each connection to a
// worker, so the port is bound once and SSH sessions spread over the workers; the host key
// is created race-free by whichever process starts first.
//
// The port is a plain TCP server; the ssh2 package is loaded, and its server made, on the
// first connection, which it is then handed (ssh2's injectSocket): loading ssh2 costs a process
// 17 MB, which a server nobody uses SSH with never pays.
import { createRequire } from 'node:module';
import net, { type AddressInfo, type Socket } from 'node:net';
import type Ssh2 from 'ssh2';
import type { Connection, ServerChannel, Session } from 'ssh2';
import type { Deps } from '../deps.js';
import { loadHostKey } from './ssh_host_key.js';
import { actorOf, greetingName, identify, SSH_USER, type SshIdentity } from './ssh_auth.js';
import { runExec, type SessionEnv } from './ssh_exec.js';

const MAX_AUTH_ATTEMPTS = 10;
const LOGIN_GRACE_MS = 60_000;
const CLOSE_WAIT_MS = 5_000;

export interface SshServer {
  port: number;
  close(): Promise<void>;
}

export interface SshServerOptions {
  port: number;
  host: string;
}

async function greet(deps: Deps, identity: SshIdentity, channel: ServerChannel, pty: boolean): Promise<void> {
  const name = greetingName(await actorOf(deps, identity));
  channel.write(`Welcome to GitLab, ${name}!${pty ? '\r\n' : '\n'}`);
  channel.exit(0);
  channel.end();
}

function serveSession(deps: Deps, identity: SshIdentity, session: Session): void {
  const env: SessionEnv = {};
  let pty = false;
  session.on('pty', (accept) => {
    pty = true;
    accept?.();
  });
  session.on('env', (accept, reject, info) => {
    if (info.key === 'GIT_PROTOCOL') {
      env.gitProtocol = info.val;
      accept?.();
    } else {
      reject?.();
    }
  });
  const failed = (channel: ServerChannel, err: unknown) => {
    deps.log.error({ err }, 'ssh session failed');
    try {
      channel.stderr.write('GitLab: Internal error\n');
      channel.exit(1);
      channel.end();
    } catch {
      // the channel is gone
    }
  };
  session.on('shell', (accept) => {
    const channel = accept();
    greet(deps, identity, channel, pty).catch((err) => failed(channel, err));
  });
  session.on('exec', (accept, _reject, info) => {
    const channel = accept();
    runExec(deps, identity, info.command, channel, env).catch((err) => failed(channel, err));
  });
}

function serveConnection(deps: Deps, client: Connection): void {
  let identity: SshIdentity | null = null;
  let attempts = 0;
  const grace = setTimeout(() => client.end(), LOGIN_GRACE_MS).unref();
  client.on('authentication', (ctx) => {
    if (ctx.method !== 'publickey' || ctx.username !== SSH_USER) return ctx.reject(['publickey']);
    if (++attempts > MAX_AUTH_ATTEMPTS) {
      ctx.reject();
      client.end();
      return;
    }
    identify(deps, { data: ctx.key.data, signature: ctx.signature, blob: ctx.blob, hashAlgo: ctx.hashAlgo })
      .then((found) => {
        if (!found) return ctx.reject(['publickey']);
        if (ctx.signature) identity = found;
        ctx.accept();
      })
      .catch((err) => {
        deps.log.error({ err }, 'ssh authentication failed');
        try {
          ctx.reject(['publickey']);
        } catch {
          // the connection is gone
        }
      });
  });
  client.on('ready', () => {
    clearTimeout(grace);
    client.on('session', (accept) => serveSession(deps, identity!, accept()));
  });
  client.on('close', () => clearTimeout(grace));
  client.on('error', (err) => deps.log.debug({ err }, 'ssh connection error'));
}

/** Starts the SSH server; resolves once it listens. */
export async function startSshServer(deps: Deps, opts: SshServerOptions): Promise<SshServer> {
  const hostKey = loadHostKey(deps.config.sshHostKey, deps.log);
  const clients = new Set<Connection>();
  let ssh: Ssh2.Server | null = null;
  const sshServer = (): Ssh2.Server => {
    if (ssh) return ssh;
    const ssh2 = createRequire(import.meta.url)('ssh2') as typeof Ssh2;
    ssh = new ssh2.Server({ hostKeys: [hostKey], ident: 'Wharf' }, (client) => {
      clients.add(client);
      client.on('close', () => clients.delete(client));
      serveConnection(deps, client);
    });
    return ssh;
  };
  const server = net.createServer((socket: Socket) => {
    // Each step of the handshake is one small packet waiting for an answer: with Nagle's
    // algorithm (and the peer's delayed ACK) every one of them would wait ~40 ms.
    socket.setNoDelay(true);
    sshServer().injectSocket(socket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (err: Error) => deps.log.error({ err }, 'ssh server error'));
  const { port } = server.address() as AddressInfo;
  deps.log.info({ host: opts.host, port }, `git over SSH listening on ${opts.host}:${port}`);
  return {
    port,
    async close() {
      for (const client of clients) client.end();
      // A peer that never closes its side must not hold the shutdown up.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, CLOSE_WAIT_MS).unref())]);
    },
  };
}
