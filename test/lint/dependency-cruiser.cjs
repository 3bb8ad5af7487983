// The layering of Wharf's architecture ("Which layer may use which": api → services, finders → policy → store, git) as rules
// that `make lint` (so `make test`) checks over src/ with dependency-cruiser:
//
//   entry points (app.ts, server.ts, main.ts) → api, transport, jobs
//   api → http → services → finders → policy → store, git
//   api → entities (pure presenters: store and git types, the URL builder's type)
//   deps.ts / config.ts: the wiring every layer above store and git is handed
//
// No import cycles anywhere, and no import from a lower layer to a higher one. A rule here
// is the architecture: fix the import, do not add an exception. The baseline next to this
// file (known-violations.json) listed the imports that were already wrong when the check
// landed; moving the queries out of presenters removed the last of them, so it is empty and
// stays so: never add an entry.
/** A path inside one of src/'s folders. */
const under = (...folders) => `^src/(${folders.join('|')})/`;
/** One of src/'s top-level files. */
const file = (...names) => `^src/(${names.join('|')})\\.ts$`;

const ENTRY = file('app', 'server', 'main');
const WIRING = file('deps', 'config');

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import cycle: split out the shared part (a type, a pure function) or pass a callback in.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'store-is-the-bottom',
      comment: 'store/ (rows, stored codes, domain errors, the Knex instance) imports nothing of Wharf outside store/.',
      severity: 'error',
      from: { path: under('store') },
      to: { path: '^src/', pathNot: under('store') },
    },
    {
      name: 'git-is-the-bottom',
      comment: 'git/ (isomorphic-git over bare repositories) imports nothing of Wharf outside git/.',
      severity: 'error',
      from: { path: under('git') },
      to: { path: '^src/', pathNot: under('git') },
    },
    {
      name: 'policy-uses-store-and-git',
      comment: 'policy/ decides from rows: it may import store/, git/ and the wiring, nothing above it.',
      severity: 'error',
      from: { path: under('policy') },
      to: { path: '^src/', pathNot: [under('policy', 'store', 'git'), WIRING] },
    },
    {
      name: 'finders-use-policy-store-git',
      comment: 'finders/ query: they may use policy/, store/, git/; never services/, entities/, http/ or api/.',
      severity: 'error',
      from: { path: under('finders') },
      to: { path: '^src/', pathNot: [under('finders', 'policy', 'store', 'git'), WIRING] },
    },
    {
      name: 'services-use-finders-policy-store-git',
      comment: 'services/ change state and raise domain errors (store/domain_errors.ts): never http/ (ApiError), entities/ or api/.',
      severity: 'error',
      from: { path: under('services') },
      to: { path: '^src/', pathNot: [under('services', 'finders', 'policy', 'store', 'git'), WIRING] },
    },
    {
      name: 'entities-are-pure',
      comment:
        'entities/ present what a finder loaded: they import other entities, store/ types and pure codes, git/ types ' +
        'and the URL builder type; never the database handle, a finder, a service, policy/ or the wiring.',
      severity: 'error',
      from: { path: under('entities') },
      to: { path: '^src/', pathNot: [under('entities', 'store', 'git'), file('http/urls')] },
    },
    {
      name: 'entities-do-not-query',
      comment: 'entities/ never hold the database handle (store/db.ts) nor store/ code that writes (iids, cache epochs): ' + 'loading belongs in finders/.',
      severity: 'error',
      from: { path: under('entities') },
      to: { path: file('store/db', 'store/iids', 'store/cache_epochs') },
    },
    {
      name: 'entities-use-only-types-of-git-and-urls',
      comment: 'entities/ may name git/ and http/urls.ts types, not run their code.',
      severity: 'error',
      from: { path: under('entities') },
      to: { path: [under('git'), file('http/urls')], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'http-is-used-by-api-only',
      comment: 'http/ (errors, auth, params, pagination, urls) is the API edge: only api/ and the entry points use it.',
      severity: 'error',
      from: { path: '^src/', pathNot: [under('api', 'http', 'entities'), ENTRY, file('deps')] },
      to: { path: under('http') },
    },
    {
      name: 'the-wiring-names-http-urls-type-only',
      comment: 'deps.ts carries the URL builder to every layer: as a type, never as code.',
      severity: 'error',
      from: { path: file('deps') },
      to: { path: under('http'), dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'http-sits-below-api',
      comment: 'http/ may use services/, finders/, policy/, store/, git/; never api/, entities/, transport/ or jobs/.',
      severity: 'error',
      from: { path: under('http') },
      to: { path: [under('api', 'entities', 'transport', 'jobs'), ENTRY] },
    },
    {
      name: 'api-is-used-by-the-entry-points-only',
      comment: 'api/ is the top: nothing but app.ts (and api/ itself) imports it.',
      severity: 'error',
      from: { path: '^src/', pathNot: [under('api'), ENTRY] },
      to: { path: under('api') },
    },
    {
      name: 'transport-and-jobs-are-entry-points',
      comment: 'transport/ (git over HTTP) and jobs/ are called by the entry points only.',
      severity: 'error',
      from: { path: '^src/', pathNot: [under('transport', 'jobs'), ENTRY] },
      to: { path: under('transport', 'jobs') },
    },
    {
      name: 'entry-points-are-not-imported',
      comment: 'app.ts, server.ts and main.ts build the process; no layer imports them.',
      severity: 'error',
      from: { path: '^src/', pathNot: ENTRY },
      to: { path: ENTRY },
    },
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.json' },
    // Type-only imports count: a type from a higher layer couples the layers all the same,
    // and the entities rules tell a type from code.
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
  },
};
