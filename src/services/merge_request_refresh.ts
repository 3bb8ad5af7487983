// PLACEHOLDER (issue #5 helper fills this in): refresh open merge requests whose branches moved.
import type { Deps } from '../deps.js';
import type { ProjectWithNamespace, UserRow } from '../store/rows.js';
import type { PushedRef } from './ref_updates.js';

export async function refreshMergeRequests(_deps: Deps, _project: ProjectWithNamespace, _user: UserRow, _updates: PushedRef[]): Promise<void> {}
