// GET /version (GitLab 10.8 lib/api/version.rb): signed-in clients call it to recognise the server.
import { route, type Route } from './core/route.js';

export const VERSION = '10.8.7-wharf';
const REVISION = 'wharf';

export const versionRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/version',
    auth: 'user',
    summary: 'The server version',
    response: { schema: 'Version' },
    handler: () => ({ version: VERSION, revision: REVISION }),
  }),
];
