// GET/PUT /application/settings (GitLab 10.8 lib/api/settings.rb, Entities::ApplicationSetting,
// ApplicationSetting's defaults and validations): every setting round-trips with its type,
// the required-when-enabled rules, the legacy names, the validation messages, admins only,
// and a change made through one server is seen by another on the same store at once.
import { expect } from 'chai';
import { bootServer, type TestServer } from '../helpers/server.js';
import { ChildServer, tempDataDir, removeDataDir } from '../helpers/child_server.js';
import { FIELDS, SETTING_NAMES, VISIBLE_ATTRIBUTES } from '../../src/store/settings_catalogue.js';

const VISIBILITY_NAMES = ['private', 'internal', 'public'];

/** A value different from the default, of the setting's type, that passes validation. */
function changedValue(name: string): unknown {
  const specials: Record<string, unknown> = {
    default_branch_protection: 1,
    default_group_visibility: 'internal',
    default_project_visibility: 'public',
    default_snippet_visibility: 'internal',
    restricted_visibility_levels: ['public'],
    import_sources: ['git', 'gitlab_project'],
    disabled_oauth_sign_in_sources: [],
    enabled_git_access_protocol: 'http',
    repository_storages: ['default'],
    domain_blacklist: ['spam.example', 'junk.example'],
    domain_whitelist: ['corp.example'],
    default_artifacts_expire_in: '2 days',
    home_page_url: 'https://home.example/',
    help_page_support_url: 'https://help.example/',
    after_sign_out_path: 'https://bye.example/',
    admin_notification_email: 'abuse@example.com',
    dsa_key_restriction: 2048,
    ecdsa_key_restriction: 384,
    ed25519_key_restriction: 256,
    rsa_key_restriction: -1,
    housekeeping_incremental_repack_period: 5,
    housekeeping_full_repack_period: 60,
    housekeeping_gc_period: 300,
    gitaly_timeout_default: 60,
    gitaly_timeout_medium: 20,
    gitaly_timeout_fast: 5,
    sidekiq_throttling_factor: 0.5,
    polling_interval_multiplier: 2.5,
    performance_bar_allowed_group_id: null,
    terms: 'Be nice.',
  };
  if (name in specials) return specials[name];
  const spec = (FIELDS as Record<string, { kind: string; default: unknown }>)[name];
  switch (spec.kind) {
    case 'boolean':
      return !spec.default;
    case 'integer':
      return (spec.default as number) + 7;
    case 'decimal':
      return 0.25;
    case 'strings':
      return ['one', 'two'];
    default:
      return `value of ${name}`;
  }
}

describe('Application settings', () => {
  let s: TestServer;
  let user: { token: string };

  before(async () => {
    s = await bootServer();
    user = await s.createUser('plain');
  });
  after(async () => s?.close());

  describe('GET /application/settings', () => {
    it('answers a fresh install with GitLab 10.8 defaults, types and legacy names', async () => {
      const r = await s.get('/application/settings');
      expect(r.status).to.equal(200);
      expect(r.headers.get('content-type')).to.equal('application/json');
      const b = r.body;
      expect(b.id).to.equal(1);
      for (const name of VISIBLE_ATTRIBUTES) expect(b, name).to.have.property(name);
      expect(b).to.include({
        default_projects_limit: 100000,
        signup_enabled: true,
        password_authentication_enabled_for_web: true,
        password_authentication_enabled_for_git: true,
        password_authentication_enabled: true,
        signin_enabled: true,
        default_branch_protection: 2,
        max_attachment_size: 10,
        max_artifacts_size: 100,
        session_expire_delay: 10080,
        container_registry_token_expire_delay: 5,
        default_artifacts_expire_in: '30 days',
        default_project_visibility: 'private',
        default_snippet_visibility: 'private',
        default_group_visibility: 'private',
        gravatar_enabled: true,
        housekeeping_enabled: true,
        housekeeping_bitmaps_enabled: true,
        housekeeping_incremental_repack_period: 10,
        housekeeping_full_repack_period: 50,
        housekeeping_gc_period: 200,
        project_export_enabled: true,
        shared_runners_enabled: true,
        two_factor_grace_period: 48,
        unique_ips_limit_enabled: false,
        unique_ips_limit_per_user: 10,
        unique_ips_limit_time_window: 3600,
        throttle_unauthenticated_enabled: false,
        throttle_unauthenticated_requests_per_period: 3600,
        throttle_unauthenticated_period_in_seconds: 3600,
        throttle_authenticated_api_enabled: false,
        throttle_authenticated_api_requests_per_period: 7200,
        throttle_authenticated_api_period_in_seconds: 3600,
        throttle_authenticated_web_enabled: false,
        throttle_authenticated_web_requests_per_period: 7200,
        throttle_authenticated_web_period_in_seconds: 3600,
        terminal_max_session_time: 0,
        polling_interval_multiplier: 1,
        gitaly_timeout_fast: 10,
        gitaly_timeout_medium: 30,
        gitaly_timeout_default: 55,
        rsa_key_restriction: 0,
        dsa_key_restriction: 0,
        ecdsa_key_restriction: 0,
        ed25519_key_restriction: 0,
        akismet_enabled: false,
        recaptcha_enabled: false,
        koding_enabled: false,
        koding_url: null,
        plantuml_enabled: false,
        plantuml_url: null,
        sidekiq_throttling_enabled: false,
        require_two_factor_authentication: false,
        user_default_external: false,
        send_user_confirmation_email: false,
        usage_ping_enabled: true,
        allow_local_requests_from_hooks_and_services: false,
        enforce_terms: false,
        terms: null,
        mirror_available: true,
        performance_bar_enabled: false,
        performance_bar_allowed_group_id: null,
        domain_blacklist_raw: '',
        domain_whitelist_raw: '',
      });
      expect(b.restricted_visibility_levels).to.deep.equal([]);
      expect(b.domain_whitelist).to.deep.equal([]);
      expect(b.domain_blacklist).to.deep.equal([]);
      expect(b.repository_storages).to.deep.equal(['default']);
      expect(b.import_sources).to.deep.equal(['github', 'bitbucket', 'gitlab', 'google_code', 'fogbugz', 'git', 'gitlab_project', 'gitea']);
      expect(b.created_at).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(b.updated_at).to.match(/^\d{4}-\d{2}-\d{2}T/);
    });

    it('is for administrators only: 401 anonymous, 403 anyone else', async () => {
      const anon = await s.get('/application/settings', { token: null });
      expect(anon.status).to.equal(401);
      expect(anon.body).to.deep.equal({ message: '401 Unauthorized' });
      const plain = await s.get('/application/settings', { token: user.token });
      expect(plain.status).to.equal(403);
      expect(plain.body).to.deep.equal({ message: '403 Forbidden' });
      const put = await s.put('/application/settings', { token: user.token, json: { signup_enabled: false } });
      expect(put.status).to.equal(403);
      expect(put.body).to.deep.equal({ message: '403 Forbidden' });
      expect((await s.get('/application/settings')).body.signup_enabled).to.equal(true);
    });
  });

  describe('PUT /application/settings', () => {
    it('refuses to enforce terms that were never set (run first: terms cannot be removed)', async () => {
      const r = await s.put('/application/settings', { json: { enforce_terms: true } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ message: { terms: ['You need to set terms to be enforced'] } });
      expect((await s.get('/application/settings')).body.enforce_terms).to.equal(false);
    });

    it('round-trips every setting with its type, and GET answers the same afterwards', async () => {
      const json: Record<string, unknown> = {};
      for (const name of SETTING_NAMES) json[name] = changedValue(name);
      // Each enabled integration gets what it requires.
      json.sidekiq_throttling_queus = ['default', 'pipeline_processing'];
      delete json.sidekiq_throttling_queues;
      const r = await s.put('/application/settings', { json });
      expect(r.status, r.text).to.equal(200);
      const g = await s.get('/application/settings');
      for (const b of [r.body, g.body]) {
        for (const name of SETTING_NAMES) {
          const sent = name === 'sidekiq_throttling_queues' ? json.sidekiq_throttling_queus : json[name];
          expect(b[name], name).to.deep.equal(sent);
        }
        expect(b.domain_blacklist_raw).to.equal('spam.example\njunk.example');
        expect(b.domain_whitelist_raw).to.equal('corp.example');
        expect(b.password_authentication_enabled).to.equal(false);
        expect(b.signin_enabled).to.equal(false);
      }
      expect(Date.parse(g.body.updated_at)).to.be.at.least(Date.parse(g.body.created_at));
    });

    it('takes form-encoded values with Grape coercion (strings to booleans, integers, lists)', async () => {
      const r = await s.put('/application/settings', {
        form: { signup_enabled: 'true', default_projects_limit: '42', 'restricted_visibility_levels[]': ['internal', 'public'], polling_interval_multiplier: '0.5' },
      });
      expect(r.status, r.text).to.equal(200);
      expect(r.body).to.include({ signup_enabled: true, default_projects_limit: 42, polling_interval_multiplier: 0.5 });
      expect(r.body.restricted_visibility_levels).to.deep.equal(['internal', 'public']);
    });

    it('accepts the legacy names of password_authentication_enabled_for_web, but only one of the three', async () => {
      for (const legacy of ['signin_enabled', 'password_authentication_enabled']) {
        const r = await s.put('/application/settings', { json: { [legacy]: true, signup_enabled: true } });
        expect(r.status, r.text).to.equal(200);
        expect(r.body).to.include({ password_authentication_enabled_for_web: true, signin_enabled: true, password_authentication_enabled: true });
        const off = await s.put('/application/settings', { json: { [legacy]: false, signup_enabled: true } });
        expect(off.body.password_authentication_enabled_for_web).to.equal(false);
      }
      const both = await s.put('/application/settings', { json: { password_authentication_enabled_for_web: true, signin_enabled: false } });
      expect(both.status).to.equal(400);
      expect(both.body).to.deep.equal({ error: 'password_authentication_enabled_for_web, signin_enabled are mutually exclusive' });
    });

    it('needs at least one visible attribute', async () => {
      const r = await s.put('/application/settings', { json: { nonsense: 1 } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ error: `${VISIBLE_ATTRIBUTES.join(', ')} are missing, at least one parameter must be provided` });
    });

    it('refuses values of the wrong type or outside the value lists, storing nothing', async () => {
      const before = (await s.get('/application/settings')).body;
      const cases: [Record<string, unknown>, string][] = [
        [{ default_branch_protection: 3 }, 'default_branch_protection does not have a valid value'],
        [{ default_branch_protection: 'x' }, 'default_branch_protection is invalid'],
        [{ default_project_visibility: 'secret' }, 'default_project_visibility does not have a valid value'],
        [{ import_sources: ['git', 'svn'] }, 'import_sources does not have a valid value'],
        [{ enabled_git_access_protocol: 'ftp' }, 'enabled_git_access_protocol does not have a valid value'],
        [{ signup_enabled: 'maybe' }, 'signup_enabled is invalid'],
        [{ polling_interval_multiplier: 'fast' }, 'polling_interval_multiplier is invalid'],
        [{ rsa_key_restriction: 512 }, 'rsa_key_restriction does not have a valid value'],
        [{ throttle_unauthenticated_enabled: 'yes please' }, 'throttle_unauthenticated_enabled is invalid'],
        [{ gravatar_enabled: 'x', max_attachment_size: 'y' }, 'gravatar_enabled is invalid, max_attachment_size is invalid'],
      ];
      for (const [json, error] of cases) {
        const r = await s.put('/application/settings', { json: { ...json, sign_in_text: 'should not be stored' } });
        expect(r.status, JSON.stringify(json)).to.equal(400);
        expect(r.body, JSON.stringify(json)).to.deep.equal({ error });
      }
      expect((await s.get('/application/settings')).body).to.deep.equal(before);
    });

    it('requires the companions of an integration switched on ("given ... requires")', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ koding_enabled: true }, 'koding_url is missing'],
        [{ plantuml_enabled: true }, 'plantuml_url is missing'],
        [{ domain_blacklist_enabled: true }, 'domain_blacklist is missing'],
        [{ require_two_factor_authentication: true }, 'two_factor_grace_period is missing'],
        [{ shared_runners_enabled: true }, 'shared_runners_text is missing'],
        [
          { metrics_enabled: true, metrics_host: 'influx' },
          'metrics_port is missing, metrics_pool_size is missing, metrics_timeout is missing, metrics_method_call_threshold is missing, ' +
            'metrics_sample_interval is missing, metrics_packet_size is missing',
        ],
        [{ sidekiq_throttling_enabled: true }, 'sidekiq_throttling_queus is missing, sidekiq_throttling_factor is missing'],
        [{ recaptcha_enabled: 'true', recaptcha_site_key: 'k' }, 'recaptcha_private_key is missing'],
        [{ akismet_enabled: true }, 'akismet_api_key is missing'],
        [{ sentry_enabled: true }, 'sentry_dsn is missing'],
        [{ clientside_sentry_enabled: true }, 'clientside_sentry_dsn is missing'],
        [
          { housekeeping_enabled: true },
          'housekeeping_bitmaps_enabled is missing, housekeeping_incremental_repack_period is missing, housekeeping_full_repack_period is missing, housekeeping_gc_period is missing',
        ],
      ];
      for (const [json, error] of cases) {
        const r = await s.put('/application/settings', { json });
        expect(r.status, JSON.stringify(json)).to.equal(400);
        expect(r.body, JSON.stringify(json)).to.deep.equal({ error });
      }
      // Switched off, nothing else is needed; switched on with its companions, it is stored.
      expect((await s.put('/application/settings', { json: { koding_enabled: false } })).status).to.equal(200);
      const on = await s.put('/application/settings', { json: { plantuml_enabled: true, plantuml_url: 'http://plantuml.example' } });
      expect(on.status, on.text).to.equal(200);
      expect(on.body).to.include({ plantuml_enabled: true, plantuml_url: 'http://plantuml.example' });
      const queues = await s.put('/application/settings', {
        json: { sidekiq_throttling_enabled: true, sidekiq_throttling_queus: ['default'], sidekiq_throttling_factor: 0.3 },
      });
      expect(queues.status, queues.text).to.equal(200);
      expect(queues.body).to.include({ sidekiq_throttling_enabled: true, sidekiq_throttling_factor: 0.3 });
      expect(queues.body.sidekiq_throttling_queues).to.deep.equal(['default']);
    });

    it("answers the model's validation messages, and stores nothing", async () => {
      await s.put('/application/settings', {
        json: {
          housekeeping_enabled: true,
          housekeeping_bitmaps_enabled: true,
          housekeeping_incremental_repack_period: 10,
          housekeeping_full_repack_period: 50,
          housekeeping_gc_period: 200,
        },
      });
      const before = (await s.get('/application/settings')).body;
      const cases: [Record<string, unknown>, Record<string, string[]>][] = [
        [{ restricted_visibility_levels: ['public', 'secret'] }, { restricted_visibility_levels: ["'secret' is not a valid visibility level"] }],
        [{ max_attachment_size: 0 }, { max_attachment_size: ['must be greater than 0'] }],
        [{ max_artifacts_size: -1 }, { max_artifacts_size: ['must be greater than 0'] }],
        [{ session_expire_delay: -5 }, { session_expire_delay: ['must be greater than or equal to 0'] }],
        [{ housekeeping_full_repack_period: 5 }, { housekeeping_full_repack_period: ['must be greater than or equal to 10'] }],
        [{ housekeeping_gc_period: 20 }, { housekeeping_gc_period: ['must be greater than or equal to 50'] }],
        [
          { gitaly_timeout_default: 55, gitaly_timeout_medium: 30, gitaly_timeout_fast: 60 },
          { gitaly_timeout_medium: ['must be greater than or equal to 60'], gitaly_timeout_fast: ['must be less than or equal to 55'] },
        ],
        [
          { sidekiq_throttling_enabled: true, sidekiq_throttling_queus: [], sidekiq_throttling_factor: 1.5 },
          {
            sidekiq_throttling_factor: ['must be less than 1'],
            sidekiq_throttling_queues: ['Queues to throttle cannot be empty if Sidekiq Throttling is enabled.'],
          },
        ],
        [{ domain_blacklist_enabled: true, domain_blacklist: '' }, { domain_blacklist: ['Domain blacklist cannot be empty if Blacklist is enabled.'] }],
        [{ recaptcha_enabled: true, recaptcha_site_key: '', recaptcha_private_key: 'p' }, { recaptcha_site_key: ["can't be blank"] }],
        [{ akismet_enabled: true, akismet_api_key: ' ' }, { akismet_api_key: ["can't be blank"] }],
        [{ home_page_url: 'ftp://example.com' }, { home_page_url: ['must be a valid URL'] }],
        [{ admin_notification_email: 'not an email' }, { admin_notification_email: ['is invalid'] }],
        [{ default_artifacts_expire_in: 'forever' }, { default_artifacts_expire_in: ['is not a correct duration'] }],
        [{ default_artifacts_expire_in: '' }, { default_artifacts_expire_in: ["can't be blank"] }],
        [{ repository_storages: ['default', 'nfs1'] }, { repository_storages: ["can't include: nfs1"] }],
        [{ repository_storages: [] }, { repository_storages: ["can't be blank"] }],
        [{ disabled_oauth_sign_in_sources: ['github'] }, { disabled_oauth_sign_in_sources: ["'github' is not an OAuth sign-in source"] }],
        [{ rsa_key_restriction: -1, dsa_key_restriction: -1, ecdsa_key_restriction: -1, ed25519_key_restriction: -1 }, { allowed_key_types: ["can't be blank"] }],
        [{ unique_ips_limit_enabled: true, unique_ips_limit_per_user: 0 }, { unique_ips_limit_per_user: ['must be greater than or equal to 1'] }],
        [{ throttle_authenticated_api_period_in_seconds: 0 }, { throttle_authenticated_api_period_in_seconds: ['must be greater than 0'] }],
        [{ default_projects_limit: null }, { default_projects_limit: ["can't be blank"] }],
      ];
      for (const [json, message] of cases) {
        const r = await s.put('/application/settings', { json });
        expect(r.status, JSON.stringify(json)).to.equal(400);
        expect(r.body, JSON.stringify(json)).to.deep.equal({ message });
      }
      expect((await s.get('/application/settings')).body).to.deep.equal(before);
    });

    it('splits domain lists given as text and takes numbers for visibility levels', async () => {
      const r = await s.put('/application/settings', {
        json: { domain_whitelist: 'a.example, b.example;c.example\nd.example', domain_blacklist_raw: 'x.example y.example', restricted_visibility_levels: ['10', 'private'] },
      });
      expect(r.status, r.text).to.equal(200);
      expect(r.body.domain_whitelist).to.deep.equal(['a.example', 'b.example', 'c.example', 'd.example']);
      expect(r.body.domain_whitelist_raw).to.equal('a.example\nb.example\nc.example\nd.example');
      expect(r.body.domain_blacklist).to.deep.equal(['x.example', 'y.example']);
      expect(r.body.restricted_visibility_levels).to.deep.equal(['internal', 'private']);
      const cleared = await s.put('/application/settings', { json: { restricted_visibility_levels: [], domain_whitelist: [] } });
      expect(cleared.body.restricted_visibility_levels).to.deep.equal([]);
      expect(cleared.body.domain_whitelist).to.deep.equal([]);
    });

    it('maps the performance bar group from its path, and clears it when disabled', async () => {
      const group = await s.post('/groups', { json: { name: 'Perf', path: 'perf-team' } });
      expect(group.status, group.text).to.equal(201);
      const on = await s.put('/application/settings', { json: { performance_bar_allowed_group_id: 'perf-team' } });
      expect(on.body).to.include({ performance_bar_allowed_group_id: group.body.id, performance_bar_enabled: true });
      const off = await s.put('/application/settings', { json: { performance_bar_enabled: false } });
      expect(off.body).to.include({ performance_bar_allowed_group_id: null, performance_bar_enabled: false });
      const unknown = await s.put('/application/settings', { json: { performance_bar_allowed_group_id: 'no-such-group' } });
      expect(unknown.body.performance_bar_allowed_group_id).to.equal(null);
    });

    it('keeps terms once set (a blank one is not recorded) and maps enabled_git_access_protocol "nil" to both', async () => {
      await s.put('/application/settings', { json: { terms: '  Hello world!  ', enforce_terms: true } });
      const blank = await s.put('/application/settings', { json: { terms: '' } });
      expect(blank.body).to.include({ terms: 'Hello world!', enforce_terms: true });
      await s.put('/application/settings', { json: { enforce_terms: false } });
      await s.put('/application/settings', { json: { enabled_git_access_protocol: 'ssh' } });
      const both = await s.put('/application/settings', { json: { enabled_git_access_protocol: 'nil' } });
      expect(both.body.enabled_git_access_protocol).to.equal(null);
    });

    it('shows visibility names for every level', async () => {
      for (const name of VISIBILITY_NAMES) {
        const r = await s.put('/application/settings', { json: { default_project_visibility: name, default_group_visibility: name, default_snippet_visibility: name } });
        expect(r.body).to.include({ default_project_visibility: name, default_group_visibility: name, default_snippet_visibility: name });
      }
      await s.put('/application/settings', { json: { default_project_visibility: 'private', default_group_visibility: 'private', default_snippet_visibility: 'private' } });
    });
  });

  describe('across worker processes', function () {
    this.timeout(120_000);
    it('a change made through one process is read by another on its next request', async () => {
      const dir = tempDataDir();
      const a = await ChildServer.start(dir);
      const b = await ChildServer.start(dir);
      try {
        expect((await b.request('GET', '/application/settings')).body.default_projects_limit).to.equal(100000); // b caches it
        const put = await a.request('PUT', '/application/settings', { json: { default_projects_limit: 7 } });
        expect(put.status, put.text).to.equal(200);
        expect((await b.request('GET', '/application/settings')).body.default_projects_limit).to.equal(7);
        const again = await b.request('PUT', '/application/settings', { json: { default_projects_limit: 8 } });
        expect(again.status).to.equal(200);
        expect((await a.request('GET', '/application/settings')).body.default_projects_limit).to.equal(8);
      } finally {
        await a.stop();
        await b.stop();
        await removeDataDir(dir);
      }
    });
  });
});
