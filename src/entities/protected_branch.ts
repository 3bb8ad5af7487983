// GitLab 10.8's ProtectedBranch entity: the name (or wildcard) and, as one-element arrays
// (CE allows exactly one of each), its push and merge access levels with their descriptions.
import type { ProtectedBranchRule } from '../store/rows.js';
import { DEVELOPER, MASTER, NO_ACCESS } from '../store/levels.js';

interface ProtectedRefAccessEntity {
  access_level: number;
  access_level_description: string;
}

export interface ProtectedBranchEntity {
  name: string;
  push_access_levels: ProtectedRefAccessEntity[];
  merge_access_levels: ProtectedRefAccessEntity[];
}

/** ProtectedRefAccess::HUMAN_ACCESS_LEVELS */
const DESCRIPTIONS: Record<number, string> = {
  [MASTER]: 'Masters',
  [DEVELOPER]: 'Developers + Masters',
  [NO_ACCESS]: 'No one',
};

function accessLevel(level: number): ProtectedRefAccessEntity {
  return { access_level: level, access_level_description: DESCRIPTIONS[level] };
}

export function protectedBranchEntity(rule: ProtectedBranchRule): ProtectedBranchEntity {
  return {
    name: rule.name,
    push_access_levels: [accessLevel(rule.push_access_level)],
    merge_access_levels: [accessLevel(rule.merge_access_level)],
  };
}
