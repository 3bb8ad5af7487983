// Access levels and visibility levels, as GitLab numbers and stores them (stored codes: every
// layer may import them), and the names the API shows for visibility levels.
export const NO_ACCESS = 0;
export const GUEST = 10;
export const REPORTER = 20;
export const DEVELOPER = 30;
export const MASTER = 40;
export const OWNER = 50;

export const ACCESS_LEVELS = [GUEST, REPORTER, DEVELOPER, MASTER, OWNER] as const;
/** Project members cannot be owners: ownership comes from the namespace. */
export const PROJECT_ACCESS_LEVELS = [GUEST, REPORTER, DEVELOPER, MASTER] as const;

export const PRIVATE = 0;
export const INTERNAL = 10;
export const PUBLIC = 20;

export type Visibility = 'private' | 'internal' | 'public';
export const VISIBILITIES: readonly Visibility[] = ['private', 'internal', 'public'];

export function visibilityName(level: number): Visibility {
  return level >= PUBLIC ? 'public' : level >= INTERNAL ? 'internal' : 'private';
}

export function visibilityLevel(name: Visibility): number {
  return name === 'public' ? PUBLIC : name === 'internal' ? INTERNAL : PRIVATE;
}
