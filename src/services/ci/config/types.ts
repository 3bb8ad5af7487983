// The shape of a validated .gitlab-ci.yml, as GitLab 10.8's YamlProcessor hands it to
// pipeline creation: the stages in order and, per visible job, what a build row keeps
// (stage, commands, when, allow_failure, environment, artifacts, only/except, variables).

/** One `only`/`except` policy: ref patterns (names, keywords, `/regex/`), as GitLab keeps them. */
export interface RefPolicy {
  refs?: string[];
  kubernetes?: string;
  variables?: string[];
}

interface CiArtifacts {
  name?: string;
  untracked?: boolean;
  paths?: string[];
  when?: 'on_success' | 'on_failure' | 'always';
  expire_in?: string;
}

export interface CiEnvironment {
  name: string;
  url?: string;
  action?: 'start' | 'stop';
  on_stop?: string;
}

export interface CiJob {
  name: string;
  stage: string;
  stageIdx: number;
  beforeScript: string[];
  script: string[];
  afterScript: string[];
  when: 'on_success' | 'on_failure' | 'always' | 'manual';
  allowFailure: boolean;
  environment?: CiEnvironment;
  artifacts?: CiArtifacts;
  dependencies?: string[];
  coverage?: string;
  retry?: number;
  tags: string[];
  image?: unknown;
  services?: unknown;
  only: RefPolicy;
  except?: RefPolicy;
  variables: Record<string, string>;
}

export interface CiConfig {
  stages: string[];
  jobs: CiJob[];
}

/** The YamlProcessor's ValidationError: its message becomes the pipeline's `yaml_errors`. */
export class CiConfigError extends Error {}
