// Repository snapshots (GitLab 10.8 lib/api/project_snapshots.rb): GET /projects/:id/snapshot,
// for admins only (401 signed out, 403 for anyone else, owners included; then 404 for an
// unknown project), streams an uncompressed tar of the bare repository (git/snapshot.ts) with
// Workhorse's headers: `attachment; filename="snapshot.tar"`, application/x-tar.
// A debt: Wharf has no wikis yet, so `wiki=true`, which 10.8 answers with the wiki
// repository's snapshot, is 404 Wiki Not Found.
import { HANDLED, route, type Route } from './core/route.js';
import { notFound } from '../http/errors.js';
import { p } from '../http/params.js';
import { gitdirOf } from '../finders/projects.js';
import { snapshotTar } from '../git/snapshot.js';

export const snapshotRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/projects/:id/snapshot',
    auth: 'admin',
    load: 'project',
    params: { wiki: p.boolean().default(false) },
    summary: 'Download a (possibly inconsistent) tar snapshot of the repository (admins)',
    handler: async ({ ctx, deps, project, params }) => {
      if (params.wiki) throw notFound('Wiki');
      const stream = await snapshotTar(gitdirOf(deps.repos, project));
      ctx.set('Content-Disposition', 'attachment; filename="snapshot.tar"');
      ctx.set('Content-Transfer-Encoding', 'binary');
      ctx.set('Cache-Control', 'private');
      ctx.type = 'application/x-tar';
      ctx.body = stream;
      return HANDLED;
    },
  }),
];
