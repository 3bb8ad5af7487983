// GitLab 10.8's Branch entity (lib/api/entities.rb `Branch`): name, the head commit as the
// Commit entity, merged into the default branch, and its protection flags.
import type { CommitInfo } from '../git/reader.js';
import { commitBasic, type CommitBasic } from './commit.js';

export interface BranchEntity {
  name: string;
  commit: CommitBasic;
  merged: boolean;
  protected: boolean;
  developers_can_push: boolean;
  developers_can_merge: boolean;
}

export interface BranchFacts {
  merged: boolean;
  protected: boolean;
  developersCanPush: boolean;
  developersCanMerge: boolean;
}

export function branchEntity(name: string, commit: CommitInfo, facts: BranchFacts): BranchEntity {
  return {
    name,
    commit: commitBasic(commit),
    merged: facts.merged,
    protected: facts.protected,
    developers_can_push: facts.developersCanPush,
    developers_can_merge: facts.developersCanMerge,
  };
}
