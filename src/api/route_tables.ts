// Every declared route table of /api/v4, in mount order: what app.ts mounts, `make routes`
// prints and the OpenAPI document describes. A family converted to a table (route.ts) is
// listed here and leaves app.ts's API_ROUTERS; the two coexist while the conversion goes on.
import type { Route } from './route.js';
import { statusOf } from './route.js';
import { fileRoutes } from './files.js';
import { branchRoutes } from './branches.js';
import { protectedBranchRoutes } from './protected_branches.js';
import { labelRoutes } from './labels.js';
import { milestoneRoutes } from './milestones.js';
import { docsRoutes } from './docs.js';

export interface RouteTable {
  family: string;
  routes: readonly Route[];
}

export const ROUTE_TABLES: readonly RouteTable[] = [
  { family: 'files', routes: fileRoutes },
  { family: 'branches', routes: branchRoutes },
  { family: 'protected_branches', routes: protectedBranchRoutes },
  { family: 'labels', routes: labelRoutes },
  { family: 'milestones', routes: milestoneRoutes },
  // openapi.json and the docs page describe every table, this one included (read when asked).
  { family: 'docs', routes: docsRoutes(() => ROUTE_TABLES) },
];

/** The tables as text, one route a line: method, path, auth, load, ability, status, summary. */
export function formatRouteTable(tables: readonly RouteTable[] = ROUTE_TABLES): string {
  const rows = tables.flatMap((t) =>
    t.routes.map((r) => [r.method, `/api/v4${r.path}`, r.auth, r.load ?? '-', r.ability ?? '-', String(statusOf(r)), r.summary]),
  );
  const header = ['METHOD', 'PATH', 'AUTH', 'LOAD', 'ABILITY', 'STATUS', 'SUMMARY'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}
