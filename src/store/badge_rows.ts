// Row type of badges: a project's own (`ProjectBadge`) or a group's (`GroupBadge`), as GitLab
// keeps both in one table.

type BadgeType = 'ProjectBadge' | 'GroupBadge';

export interface BadgeRow {
  id: number;
  type: BadgeType;
  project_id: number | null;
  group_id: number | null;
  link_url: string;
  image_url: string;
  created_at: string;
  updated_at: string;
}
