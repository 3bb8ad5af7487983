// Tags and their releases (GitLab 10.8 lib/api/tags.rb): list, get, create, delete, and the
// release notes of a tag (POST to add, PUT to change). Every route declares REPOSITORY_READ
// (the project, 404; download_code, 403: tags.rb's `before`), the writes as TAG_WRITE
// (`by_ability`: no sign-in asked first); the writes then validate their parameters and ask
// push_code (`authorize_push_project`, 401 for the anonymous), in that order, as Grape does.
// Tag names with slashes arrive URL-encoded. Each tag shows its stored release (one query
// per page). Service refusals answer `{"message": ...}` with 10.8's statuses: 400 for the
// tag writes, 404/409 for releases.
import type { Deps } from '../deps.js';
import type { ProjectWithNamespace } from '../store/rows.js';
import { route, type Route } from './core/route.js';
import { notFound } from '../http/errors.js';
import { p } from '../http/params.js';
import { pageOf, paginateArray } from '../http/pagination.js';
import { checkUnmodifiedSince } from '../http/conditional.js';
import { REPOSITORY_READ, repositoryOf } from './repo_context.js';
import { compareVersions } from '../git/version_sort.js';
import type { RepoReader, TagRef } from '../git/reader.js';
import { gitTime } from '../entities/commit.js';
import { releaseEntity, tagEntity } from '../entities/tag.js';
import { createRelease, releasesByTag, updateRelease } from '../services/repository/releases.js';
import { createTag, deleteTag } from '../services/repository/tag_writes.js';

const TAG_ROUTE = '/projects/:id/repository/tags/:tag_name';
const TAG = { schema: 'Tag' } as const;
const RELEASE = { schema: 'Release' } as const;

async function tagCommit(reader: RepoReader, tag: TagRef) {
  return tag.commitOid ? reader.commit(tag.commitOid) : null;
}

/** Tag entities with their commits and releases (the releases in one query). */
async function present(deps: Deps, project: ProjectWithNamespace, reader: RepoReader, tags: TagRef[]) {
  const releases = await releasesByTag(
    deps.db,
    project.id,
    tags.map((t) => t.name),
  );
  return Promise.all(tags.map(async (t) => tagEntity(t, await tagCommit(reader, t), releases.get(t.name) ?? null)));
}

async function findTag(reader: RepoReader, name: string): Promise<TagRef | undefined> {
  return (await reader.tagRefs()).find((t) => t.name === name);
}

const releaseParams = { tag_name: p.string().required(), description: p.string().required() };

/** A tag write: REPOSITORY_READ's project and download_code, then push_code in the handler (401 for the anonymous). */
const TAG_WRITE = { ...REPOSITORY_READ, auth: 'by_ability' } as const;

export const tagRoutes: Route[] = [
  route({
    ...REPOSITORY_READ,
    method: 'GET',
    path: '/projects/:id/repository/tags',
    params: {
      sort: p.string().values(['asc', 'desc']).default('desc'),
      order_by: p.string().values(['name', 'updated']).default('updated'),
    },
    summary: "List a repository's tags (by name or by the tagged commit's date)",
    response: { ...TAG, list: true },
    handler: async ({ ctx, deps, project, params: { sort, order_by } }) => {
      pageOf(ctx);
      const reader = repositoryOf(deps, project);
      const tags = await reader.tagRefs();
      let sorted: TagRef[];
      if (order_by === 'name') {
        sorted = [...tags].sort((a, b) => compareVersions(a.name, b.name));
      } else {
        // By the tagged commit's date; a tag without a commit counts as "now" (last).
        const now = Math.floor(Date.now() / 1000);
        const dates = new Map<string, number>();
        for (const t of tags) dates.set(t.name, (await tagCommit(reader, t))?.committer.timestamp ?? now);
        sorted = [...tags].sort((a, b) => dates.get(a.name)! - dates.get(b.name)!);
      }
      if (sort === 'desc') sorted.reverse();
      return present(deps, project, reader, paginateArray(ctx, sorted));
    },
  }),

  route({
    ...REPOSITORY_READ,
    method: 'GET',
    path: TAG_ROUTE,
    summary: 'Get a tag',
    response: TAG,
    handler: async ({ deps, project, path }) => {
      const reader = repositoryOf(deps, project);
      const tag = await findTag(reader, path.tag_name);
      if (!tag) throw notFound('Tag');
      return (await present(deps, project, reader, [tag]))[0];
    },
  }),

  route({
    ...TAG_WRITE,
    method: 'POST',
    path: '/projects/:id/repository/tags',
    params: { tag_name: p.string().required(), ref: p.string().required(), message: p.string(), release_description: p.string() },
    summary: 'Create a tag at a ref (annotated with a message; release notes with release_description)',
    response: TAG,
    handler: async ({ deps, loaded, params: v, authorize }) => {
      authorize('push_code');
      await createTag(deps, loaded, {
        name: v.tag_name,
        ref: v.ref,
        message: v.message ?? undefined,
        releaseDescription: v.release_description ?? undefined,
      });
      const reader = repositoryOf(deps, loaded.project);
      const tag = await findTag(reader, v.tag_name);
      if (!tag) throw notFound('Tag'); // deleted again meanwhile
      return (await present(deps, loaded.project, reader, [tag]))[0];
    },
  }),

  route({
    ...TAG_WRITE,
    method: 'DELETE',
    path: TAG_ROUTE,
    summary: 'Delete a tag (and its release)',
    handler: async ({ ctx, deps, loaded, path, authorize }) => {
      authorize('push_code');
      const reader = repositoryOf(deps, loaded.project);
      const tag = await findTag(reader, path.tag_name);
      if (!tag) throw notFound('Tag');
      const commit = await tagCommit(reader, tag);
      if (commit) checkUnmodifiedSince(ctx, gitTime(commit.author.timestamp));
      await deleteTag(deps, loaded, tag.name, tag.target, tag.commitOid);
    },
  }),

  route({
    ...TAG_WRITE,
    method: 'POST',
    path: `${TAG_ROUTE}/release`,
    params: releaseParams,
    summary: 'Add release notes to a tag',
    response: RELEASE,
    handler: async ({ deps, project, params: v, authorize }) => {
      authorize('push_code');
      const exists = !!(await findTag(repositoryOf(deps, project), v.tag_name));
      return releaseEntity(await createRelease(deps.db, project.id, v.tag_name, v.description, exists));
    },
  }),

  route({
    ...TAG_WRITE,
    method: 'PUT',
    path: `${TAG_ROUTE}/release`,
    params: releaseParams,
    summary: "Change a tag's release notes",
    response: RELEASE,
    handler: async ({ deps, project, params: v, authorize }) => {
      authorize('push_code');
      const exists = !!(await findTag(repositoryOf(deps, project), v.tag_name));
      return releaseEntity(await updateRelease(deps.db, project.id, v.tag_name, v.description, exists));
    },
  }),
];
