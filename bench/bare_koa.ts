// The framework's ceiling for issue #12's ratios: bare Koa answering one fixed JSON body (the
// body Wharf answers to GET /projects/:id, read from BARE_BODY_FILE) on PORT, serialised by
// Koa on every request as Wharf's bodies are. Started as a child process by bench/ceiling.ts.
import fs from 'node:fs';
import http from 'node:http';
import Koa from 'koa';

const body = JSON.parse(fs.readFileSync(process.env.BARE_BODY_FILE ?? '', 'utf8'));
const app = new Koa();
app.use((ctx) => {
  ctx.body = body;
});
const server = http.createServer(app.callback());
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT), '127.0.0.1');
