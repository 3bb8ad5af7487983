// /features (GitLab 10.8 lib/api/features.rb), admins only (401 signed out, 403 others): the
// persisted feature flags with their gates (not paginated, as in 10.8); setting a gate from
// `value` ('true', 'false'/'0', or a percentage of time) for the whole instance or, with
// `feature_group` and/or `user` (a username), for those only — 201 with the feature; and
// removing a feature with its gates (204, also when there was none). Which flags Wharf itself
// reads is in the README ("Feature flags").
import { route, type Route } from './core/route.js';
import { p } from '../http/params.js';
import { allFeatures } from '../finders/features.js';
import { removeFeature, setFeatureGate } from '../services/features/features.js';
import { featureEntity } from '../entities/feature.js';

const nameParam = { name: p.string().required() };

export const featureRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/features',
    auth: 'admin',
    summary: 'Get a list of all features',
    response: { schema: 'Feature', list: true },
    handler: async ({ deps }) => (await allFeatures(deps.db)).map(featureEntity),
  }),

  route({
    method: 'POST',
    path: '/features/:name',
    auth: 'admin',
    params: { ...nameParam, value: p.string().required(), feature_group: p.string(), user: p.string() },
    summary: 'Set the gate value for the given feature',
    response: { schema: 'Feature' },
    handler: async ({ deps, params: v }) => featureEntity(await setFeatureGate(deps.db, v.name, { value: v.value, featureGroup: v.feature_group, user: v.user })),
  }),

  route({
    method: 'DELETE',
    path: '/features/:name',
    auth: 'admin',
    params: nameParam,
    summary: 'Remove the gate value for the given feature',
    handler: async ({ deps, params }) => removeFeature(deps.db, params.name),
  }),
];
