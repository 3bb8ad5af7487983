// Custom attributes (admin-only key/value pairs) of users, projects and groups:
// GET list, GET/PUT/DELETE one key.
import type Router from '@koa/router';
import type Koa from 'koa';
import type { Deps } from '../deps.js';
import { requireAdmin } from '../http/auth.js';
import { notFound } from '../http/errors.js';
import { p, parse } from '../http/params.js';
import { now } from '../store/time.js';

type SubjectType = 'user' | 'project' | 'group';

/**
 * Mounts the four routes under `base` (e.g. `/projects/:id`). `resolve` finds the subject
 * (answering 404/403 itself) and returns its id.
 */
export function mountCustomAttributes(
  router: Router,
  deps: Deps,
  base: string,
  subjectType: SubjectType,
  resolve: (ctx: Koa.Context) => Promise<number>,
): void {
  const rows = (subjectId: number) => deps.db('custom_attributes').where({ subject_type: subjectType, subject_id: subjectId });
  const present = (r: { key: string; value: string }) => ({ key: r.key, value: r.value });

  router.get(`${base}/custom_attributes`, async (ctx) => {
    requireAdmin(ctx);
    const id = await resolve(ctx as unknown as Koa.Context);
    ctx.body = (await rows(id).orderBy('key')).map(present);
  });

  router.get(`${base}/custom_attributes/:key`, async (ctx) => {
    requireAdmin(ctx);
    const id = await resolve(ctx as unknown as Koa.Context);
    const row = await rows(id).where({ key: ctx.params.key }).first();
    if (!row) throw notFound('Custom Attribute');
    ctx.body = present(row);
  });

  router.put(`${base}/custom_attributes/:key`, async (ctx) => {
    requireAdmin(ctx);
    const id = await resolve(ctx as unknown as Koa.Context);
    const { value } = parse(ctx as unknown as Koa.Context, { value: p.string().required() });
    const key = ctx.params.key;
    const stamp = now();
    await deps.db('custom_attributes')
      .insert({ subject_type: subjectType, subject_id: id, key, value, created_at: stamp, updated_at: stamp })
      .onConflict(['subject_type', 'subject_id', 'key'])
      .merge({ value, updated_at: stamp });
    ctx.body = { key, value };
  });

  router.delete(`${base}/custom_attributes/:key`, async (ctx) => {
    requireAdmin(ctx);
    const id = await resolve(ctx as unknown as Koa.Context);
    const removed = await rows(id).where({ key: ctx.params.key }).delete();
    if (!removed) throw notFound('Custom Attribute');
    ctx.status = 204;
  });
}
