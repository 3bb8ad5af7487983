// The framework's ceiling for the benchmarks' ratios: bare Koa answering one fixed JSON body (the
// body Wharf answers to GET /projects/:id, read from BARE_BODY_FILE) on PORT, serialised by
// Koa on every request as Wharf's bodies are; with BARE_AS_BYTES=1, sent as the bytes read, as
// Wharf sends a list page it keeps rendered (then only the transfer costs: the loopback and the
// client's parsing). Started as a child process by bench/ceiling.ts.
import fs from 'node:fs';
import http from 'node:http';
import Koa from 'koa';

const text = fs.readFileSync(process.env.BARE_BODY_FILE ?? '');
const asBytes = process.env.BARE_AS_BYTES === '1';
const body: unknown = asBytes ? text : JSON.parse(text.toString('utf8'));
const app = new Koa();
app.use((ctx) => {
  if (asBytes) ctx.type = 'application/json';
  ctx.body = body;
});
const server = http.createServer(app.callback());
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT), '127.0.0.1');
