// /circuit_breakers/repository_storage (GitLab 10.8 lib/api/circuit_breakers.rb), admins only
// (401 signed out, 403 others): the health of every repository storage, of the failing ones,
// and resetting their failure counts. Wharf has one storage, 'default' (WHARF_REPOS), checked
// when asked (finders/storage_health.ts); it keeps no failure counts, so the reset has
// nothing to clear and answers 204.
import { route, type Route } from './core/route.js';
import { repositoryStorageHealth } from '../finders/storage_health.js';
import { repositoryStorageHealthEntity } from '../entities/repository_storage_health.js';

const HEALTH = { schema: 'RepositoryStorageHealth', list: true } as const;

export const circuitBreakerRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/circuit_breakers/repository_storage',
    auth: 'admin',
    summary: 'Get all git storages',
    response: HEALTH,
    handler: async ({ deps }) => (await repositoryStorageHealth(deps.repos)).map(repositoryStorageHealthEntity),
  }),

  route({
    method: 'GET',
    path: '/circuit_breakers/repository_storage/failing',
    auth: 'admin',
    summary: 'Get all failing git storages',
    response: HEALTH,
    handler: async ({ deps }) => (await repositoryStorageHealth(deps.repos)).filter((h) => h.failures.length > 0).map(repositoryStorageHealthEntity),
  }),

  route({
    method: 'DELETE',
    path: '/circuit_breakers/repository_storage',
    auth: 'admin',
    summary: 'Reset all storage failures and open circuitbreaker',
    handler: () => undefined,
  }),
];
