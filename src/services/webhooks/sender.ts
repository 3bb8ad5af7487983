// One webhook POST (GitLab 10.8's WebHookService#make_request): the JSON body with
// `Content-Type: application/json`, `X-Gitlab-Event` and, when the hook has one,
// `X-Gitlab-Token`; user:password in the URL becomes Basic authentication. Safe by
// construction:
// - the address is checked when the connection is made (security/outbound_url.ts guardedLookup), so a
//   name rebound to a private address is refused;
// - redirects are never followed (a 3xx is the answer, recorded as such), so a public URL
//   cannot bounce the request to a private one;
// - TLS certificates are verified unless the hook turned `enable_ssl_verification` off;
// - connecting has a deadline of its own (connectTimeoutMs, shorter), the whole exchange one
//   (timeoutMs, GitLab's webhook_timeout), and at most RESPONSE_CAP bytes of the answer are kept.
import http from 'node:http';
import https from 'node:https';
import { assertAllowedUrl, guardedLookup } from '../security/outbound_url.js';

/** How much of a receiver's answer is read and kept (the rest is discarded unread). */
const RESPONSE_CAP = 8 * 1024;

export interface HookRequest {
  url: string;
  event: string;
  token: string | null;
  body: string;
  verifyTls: boolean;
  allowLocal: boolean;
  timeoutMs: number;
  connectTimeoutMs: number;
}

export interface HookResponse {
  status: number;
  body: string;
}

export function sendHook(req: HookRequest): Promise<HookResponse> {
  const url = new URL(req.url);
  assertAllowedUrl(url, req.allowLocal);
  const headers: Record<string, string | number> = {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(req.body),
    'User-Agent': 'Wharf-Webhook',
    'X-Gitlab-Event': req.event,
  };
  if (req.token) headers['X-Gitlab-Token'] = req.token;
  if (url.username || url.password) {
    const user = decodeURIComponent(url.username);
    const pass = decodeURIComponent(url.password);
    headers.Authorization = `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
    url.username = '';
    url.password = '';
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<HookResponse>((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        headers,
        lookup: guardedLookup(req.allowLocal),
        rejectUnauthorized: req.verifyTls,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        res.on('data', (chunk: Buffer) => {
          if (kept >= RESPONSE_CAP) return;
          const part = chunk.subarray(0, RESPONSE_CAP - kept);
          chunks.push(part);
          kept += part.length;
          if (kept >= RESPONSE_CAP) res.destroy(); // enough: stop reading
        });
        const done = () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
        };
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      },
    );
    const timer = setTimeout(() => request.destroy(new Error(`timed out after ${req.timeoutMs} ms`)), req.timeoutMs);
    const connecting = setTimeout(() => request.destroy(new Error(`could not connect within ${req.connectTimeoutMs} ms`)), req.connectTimeoutMs);
    request.on('socket', (socket) => socket.once('connect', () => clearTimeout(connecting)));
    request.on('error', (err) => {
      clearTimeout(timer);
      clearTimeout(connecting);
      reject(err);
    });
    request.on('close', () => clearTimeout(connecting));
    request.end(req.body);
  });
}
