// PLACEHOLDER (issue #6 helper fills this in): one push event per moved ref.
import type { Deps } from '../deps.js';
import type { ProjectWithNamespace, UserRow } from '../store/rows.js';
import type { PushedRef } from './ref_updates.js';

export async function recordPushEvents(_deps: Deps, _project: ProjectWithNamespace, _user: UserRow, _updates: PushedRef[]): Promise<void> {}
