// The API's own description (not in GitLab 10.8, which had none): `GET /api/v4/openapi.json`,
// the OpenAPI 3.1 document generated from the route tables (core/openapi/document.ts), and
// `GET /api/v4/docs`, a page that renders it with Swagger UI, whose files are served from the
// installed swagger-ui-dist package (no CDN: nothing is fetched from outside the server).
// The page's one script of its own is served too, so the Content-Security-Policy allows only
// this origin's scripts; the viewer's online validator is switched off.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { notFound } from '../http/errors.js';
import { staticFiles } from '../http/static_files.js';
import { openApiDocument, type RouteFamily } from './core/openapi/document.js';
import type { JsonSchema } from './core/openapi/gitlab_schemas.js';
import { HANDLED, route, type Route } from './core/route.js';
import { VERSION } from './version.js';

const PREFIX = '/api/v4';
const ASSETS = `${PREFIX}/docs/assets`;
const OWN_SCRIPT = 'wharf-docs.js';

const viewerDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const viewer = staticFiles(viewerDir, {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
});

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Wharf API v4</title>
<link rel="stylesheet" href="${ASSETS}/swagger-ui.css">
<link rel="icon" type="image/png" href="${ASSETS}/favicon-32x32.png" sizes="32x32">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${ASSETS}/swagger-ui-bundle.js"></script>
<script src="${ASSETS}/${OWN_SCRIPT}"></script>
</body>
</html>
`;

const SCRIPT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '${PREFIX}/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    // Over 200 operations: the families are listed folded (a click opens one). Swagger UI 5
    // stops rendering fully expanded lists after the first families at this size.
    docExpansion: 'none',
    presets: [SwaggerUIBundle.presets.apis],
  });
});
`;

const CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'self'";

/** The documentation routes; `families` gives every table, this one included, when asked. */
export function docsRoutes(families: () => readonly RouteFamily[]): Route[] {
  // The tables never change while the process runs: the document is built once per schema folder.
  let cached: { dir: string | undefined; doc: JsonSchema } | undefined;
  const documentFor = (dir: string | undefined) => {
    if (!cached || cached.dir !== dir) cached = { dir, doc: openApiDocument(families(), { version: VERSION, schemasDir: dir }) };
    return cached.doc;
  };

  return [
    route({
      method: 'GET',
      path: '/openapi.json',
      auth: 'anonymous',
      summary: 'This document: the OpenAPI 3.1 description of /api/v4, generated from the route table',
      response: { schema: 'object' },
      handler: ({ deps }) => {
        const dir = deps.config.schemasDir;
        if (cached?.dir !== dir && !fs.existsSync(dir))
          deps.log.warn({ dir }, "GitLab's response schemas not found (WHARF_SCHEMAS): openapi.json describes those bodies in words only");
        return documentFor(dir);
      },
    }),

    route({
      method: 'GET',
      path: '/docs',
      auth: 'anonymous',
      summary: 'The API documentation page (Swagger UI rendering openapi.json)',
      handler: ({ ctx }) => {
        ctx.set('Content-Security-Policy', CSP);
        ctx.type = 'text/html; charset=utf-8';
        ctx.body = PAGE;
        return HANDLED;
      },
    }),

    route({
      method: 'GET',
      path: '/docs/assets/:file',
      auth: 'anonymous',
      summary: "A file of the documentation page (Swagger UI's script, style sheet, icons)",
      handler: async ({ ctx, path: { file } }) => {
        if (file === OWN_SCRIPT) {
          ctx.type = 'text/javascript; charset=utf-8';
          ctx.body = SCRIPT;
          return HANDLED;
        }
        if (!(await viewer.send(ctx, file))) throw notFound('File');
        return HANDLED;
      },
    }),
  ];
}
