// Impersonation tokens (admins only): personal access tokens an admin makes for a user, listed,
// shown and revoked here. The secret is only in the answer that creates the token.
import Router from '@koa/router';
import type Koa from 'koa';
import type { Deps } from '../deps.js';
import type { TokenRow, UserRow } from '../store/rows.js';
import { requireAdmin } from '../http/auth.js';
import { notFound, validationError } from '../http/errors.js';
import { p, type Parsed, type Schema } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import { checkUnmodifiedSince } from '../http/conditional.js';
import { findUserById } from '../finders/users.js';
import { impersonationToken } from '../entities/token.js';
import { createToken, TOKEN_SCOPES } from '../services/tokens.js';
import { now } from '../store/time.js';
import { parseOrdered } from './user_params.js';

const BASE = '/users/:user_id/impersonation_tokens';

/** Admin first (a before filter in GitLab), then the parameters, then the user. */
async function begin<S extends Schema>(ctx: Koa.Context, deps: Deps, schema: S): Promise<{ user: UserRow; v: Parsed<S> }> {
  requireAdmin(ctx);
  const v = parseOrdered(ctx, { user_id: p.integer().required(), ...schema }, {}, ctx.params);
  const user = await findUserById(deps.db, ctx.params.user_id);
  if (!user) throw notFound('User');
  return { user, v: v as Parsed<S> };
}

function tokensOf(deps: Deps, user: UserRow) {
  return deps.db('personal_access_tokens').where({ user_id: user.id, impersonation: true });
}

async function loadToken(deps: Deps, user: UserRow, id: number): Promise<TokenRow> {
  const token: TokenRow | undefined = await tokensOf(deps, user).where({ id }).first();
  if (!token) throw notFound('Impersonation Token');
  return token;
}

/** The model's rules: scopes are required and must all be known. */
function scopeErrors(scopes: string[] | undefined): Record<string, string[]> {
  if (!scopes || scopes.length === 0) return { scopes: ["can't be blank"] };
  if (!scopes.every((s) => (TOKEN_SCOPES as readonly string[]).includes(s))) return { scopes: ['can only contain available scopes'] };
  return {};
}

export function impersonationTokensRouter(deps: Deps): Router {
  const router = new Router();
  const today = () => now().slice(0, 10);

  router.get(BASE, async (ctx) => {
    const { user, v } = await begin(ctx, deps, {
      page: p.integer(),
      per_page: p.integer(),
      state: p.string().values(['all', 'active', 'inactive']).default('all'),
    });
    const q = tokensOf(deps, user).orderBy('id', 'asc');
    // A token is inactive once revoked or from its expiry day on.
    if (v.state === 'active') q.where('revoked', false).where((w) => w.whereNull('expires_at').orWhere('expires_at', '>', today()));
    if (v.state === 'inactive') q.where((w) => w.where('revoked', true).orWhere('expires_at', '<=', today()));
    const rows = await paginate<TokenRow>(ctx, deps.db, q);
    ctx.body = rows.map((t) => impersonationToken(t));
  });

  router.post(BASE, async (ctx) => {
    const { user, v } = await begin(ctx, deps, {
      name: p.string().required(),
      expires_at: p.date(),
      scopes: p.array(p.string()),
    });
    const errors = scopeErrors(v.scopes);
    if (Object.keys(errors).length) throw validationError(errors);
    const { row, token } = await createToken(deps.db, {
      userId: user.id,
      name: v.name,
      scopes: v.scopes!,
      expiresAt: v.expires_at ?? null,
      impersonation: true,
    });
    ctx.status = 201;
    ctx.body = impersonationToken(row, token);
  });

  router.get(`${BASE}/:impersonation_token_id`, async (ctx) => {
    const { user, v } = await begin(ctx, deps, { impersonation_token_id: p.integer().required() });
    ctx.body = impersonationToken(await loadToken(deps, user, v.impersonation_token_id));
  });

  router.delete(`${BASE}/:impersonation_token_id`, async (ctx) => {
    const { user, v } = await begin(ctx, deps, { impersonation_token_id: p.integer().required() });
    const token = await loadToken(deps, user, v.impersonation_token_id);
    checkUnmodifiedSince(ctx, token.updated_at);
    await deps.db('personal_access_tokens').where({ id: token.id }).update({ revoked: true, updated_at: now() });
    ctx.status = 204;
  });

  return router;
}
