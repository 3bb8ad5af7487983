// .gitlab-ci.yml parsing and validation with GitLab 10.8's yaml_errors texts
// (Gitlab::Ci::YamlProcessor), and the bounds that keep a hostile file from hurting the server.
import { expect } from 'chai';
import { parseCiConfig } from '../../src/services/ci/config/config.js';
import { CiConfigError } from '../../src/services/ci/config/types.js';

function errorOf(text: string): string {
  try {
    parseCiConfig(text);
  } catch (e) {
    expect(e).to.be.instanceOf(CiConfigError);
    return (e as Error).message;
  }
  throw new Error('expected a CiConfigError');
}

describe('CI config (.gitlab-ci.yml)', () => {
  it('reads stages, jobs, defaults, anchors and hidden templates', () => {
    const config = parseCiConfig(`
stages: [build, test, deploy]
variables: { GREETING: hello, COUNT: 3 }
before_script: [echo before]
.template: &tpl
  tags: [shell]
  variables: { FROM: template }
build:
  <<: *tpl
  stage: build
  script: make
  artifacts: { paths: [out/], expire_in: 1 week }
test:
  script: [make test]
  coverage: '/Coverage: \\d+%/'
  only: [branches, /^feature-/]
  except: { refs: [tags] }
deploy:
  stage: deploy
  script: [./deploy]
  when: manual
  environment: { name: production, url: https://example.com }
  dependencies: [build]
`);
    expect(config.stages).to.deep.equal(['build', 'test', 'deploy']);
    expect(config.jobs.map((j) => [j.name, j.stage, j.stageIdx])).to.deep.equal([
      ['build', 'build', 0],
      ['test', 'test', 1],
      ['deploy', 'deploy', 2],
    ]);
    const [build, test, deploy] = config.jobs;
    expect(build.tags).to.deep.equal(['shell']);
    expect(build.script).to.deep.equal(['make']);
    expect(build.beforeScript).to.deep.equal(['echo before']);
    expect(build.variables).to.deep.equal({ GREETING: 'hello', COUNT: '3', FROM: 'template' });
    expect(build.artifacts).to.deep.equal({ paths: ['out/'], expire_in: '1 week' });
    expect(test.coverage).to.equal('Coverage: \\d+%');
    expect(test.only).to.deep.equal({ refs: ['branches', '/^feature-/'] });
    expect(test.except).to.deep.equal({ refs: ['tags'] });
    expect(deploy.when).to.equal('manual');
    expect(deploy.allowFailure).to.equal(true);
    expect(build.allowFailure).to.equal(false);
    expect(deploy.environment).to.deep.equal({ name: 'production', url: 'https://example.com' });
  });

  it('defaults stages to build, test, deploy and a job to test, on_success, branches and tags', () => {
    const config = parseCiConfig('job:\n  script: echo hi\n');
    expect(config.stages).to.deep.equal(['build', 'test', 'deploy']);
    expect(config.jobs[0]).to.include({ stage: 'test', stageIdx: 1, when: 'on_success', allowFailure: false });
    expect(config.jobs[0].only).to.deep.equal({ refs: ['branches', 'tags'] });
  });

  it('takes the deprecated types and type keywords', () => {
    const config = parseCiConfig('types: [one, two]\njob:\n  type: two\n  script: x\n');
    expect(config.jobs[0]).to.include({ stage: 'two', stageIdx: 1 });
  });

  it("answers GitLab's yaml_errors texts", () => {
    const cases: [string, string][] = [
      ['', 'Please provide content of .gitlab-ci.yml'],
      ['just a string', 'Invalid configuration format'],
      ['- a\n- b\n', 'Invalid configuration format'],
      ['.hidden:\n  script: x\n', 'jobs config should contain at least one visible job'],
      ['build:\n  stage: build\n', "jobs:build script can't be blank"],
      ['build:\n', "jobs:build config can't be blank"],
      ['build: 3\n', 'jobs:build config should be a hash'],
      ['build:\n  script: x\n  foo: 1\n  bar: 2\n', 'jobs:build config contains unknown keys: foo, bar'],
      ['build:\n  script: x\n  when: later\n', 'jobs:build when should be on_success, on_failure, always or manual'],
      ['build:\n  script: x\n  allow_failure: maybe\n', 'jobs:build allow failure should be a boolean value'],
      ['build:\n  script: x\n  tags: [1, 2]\n', 'jobs:build tags should be an array of strings'],
      ['build:\n  script: x\n  retry: 3\n', 'jobs:build retry must be less than or equal to 2'],
      ['build:\n  script: x\n  retry: -1\n', 'jobs:build retry must be greater than or equal to 0'],
      ['build:\n  script: {a: 1}\n', 'jobs:build:script config should be a string or an array of strings'],
      ['build:\n  script: x\n  before_script: y\n', 'jobs:build:before_script config should be an array of strings'],
      ['build:\n  script: x\n  stage: lint\n', 'build job: stage parameter should be build, test, deploy'],
      ['build:\n  script: x\n  only: master\n', 'jobs:build:only has to be either an array of conditions or a hash'],
      ['build:\n  script: x\n  only: [1]\n', 'jobs:build:only config should be an array of strings or regexps'],
      ['build:\n  script: x\n  except: [/(/]\n', 'jobs:build:except config should be an array of strings or regexps'],
      ['build:\n  script: x\n  only: {branches: [x]}\n', 'jobs:build:only config contains unknown keys: branches'],
      ['build:\n  script: x\n  variables: [a]\n', 'jobs:build:variables config should be a hash of key value pairs'],
      ['build:\n  script: x\n  artifacts: {paths: a}\n', 'jobs:build:artifacts paths should be an array of strings'],
      ['build:\n  script: x\n  artifacts: {when: never}\n', 'jobs:build:artifacts when should be on_success, on_failure or always'],
      ['build:\n  script: x\n  artifacts: {expire_in: soon}\n', 'jobs:build:artifacts expire in should be a duration'],
      ['build:\n  script: x\n  artifacts: {zip: 1}\n', 'jobs:build:artifacts config contains unknown keys: zip'],
      ['build:\n  script: x\n  environment: {url: x}\n', "jobs:build:environment name can't be blank"],
      [
        'build:\n  script: x\n  environment: /prod\n',
        "jobs:build:environment name can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', and spaces, but it cannot start or end with '/'",
      ],
      ['build:\n  script: x\n  environment: {name: p, action: go}\n', 'jobs:build:environment action should be start or stop'],
      ['build:\n  script: x\n  coverage: "\\\\d+"\n', 'jobs:build:coverage config must be a regular expression'],
      ['stages: build\nbuild:\n  script: x\n', 'stages config should be an array of strings'],
      ['variables: [a]\nbuild:\n  script: x\n', 'variables config should be a hash of key value pairs'],
      ['a:\n  script: x\n  dependencies: [b]\n', 'a job: undefined dependency: b'],
      ['a:\n  script: x\n  dependencies: [b]\nb:\n  script: y\n', 'a job: dependency b is not defined in prior stages'],
    ];
    for (const [text, message] of cases) expect(errorOf(text), text).to.equal(message);
  });

  it('reports a YAML syntax error by its first line', () => {
    const message = errorOf('build:\n  script: [a\n');
    expect(message).to.be.a('string').and.not.equal('');
    expect(message).not.to.include('\n');
  });

  it('refuses a YAML bomb (alias expansion bounded) without building it', () => {
    const lines = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
    const names = 'abcdefghij';
    for (let i = 1; i < names.length; i++) {
      const prev = names[i - 1];
      lines.push(`${names[i]}: &${names[i]} [${Array(10).fill(`*${prev}`).join(',')}]`);
    }
    lines.push('job:\n  script: [*j]');
    const message = errorOf(lines.join('\n'));
    expect(message).to.match(/alias/i);
  });

  it('refuses a 10 MB config before parsing it', () => {
    const text = `job:\n  script:\n${'    - echo aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n'.repeat(300_000)}`;
    expect(Buffer.byteLength(text)).to.be.greaterThan(9_000_000);
    expect(errorOf(text)).to.equal('The CI configuration is larger than 1048576 bytes');
  });
});
