// Project issue boards (GitLab 10.8 lib/api/boards.rb): the project's boards with their label
// lists, and the lists' reads, creation, moves and deletion. Every route needs a signed-in
// user (401 otherwise, even on a public project). Reading needs read_board (any reader of the
// project), changing lists admin_list (reporters; refused on an archived project); disabling
// issues changes neither, as in 10.8. The checks come in 10.8's order (board_responses.ts).
// The project's default board (with its hidden backlog and closed lists) is made when its
// boards are first read (services/boards/default_board.ts).
import { route, type Route } from './core/route.js';
import { p } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import type { Deps } from '../deps.js';
import type { BoardParent, BoardRow } from '../store/board_rows.js';
import { boardsQuery } from '../finders/boards.js';
import { ensureDefaultBoard } from '../services/boards/default_board.js';
import { presentProject } from './present_projects.js';
import { BOARD, LIST, boardList, boardLists, createList, deleteList, moveList, oneBoard, presentBoards } from './board_responses.js';
import type { LoadedProject } from './core/loaders.js';

const BASE = '/projects/:id/boards';
const BOARD_ID = { board_id: p.integer().required() };
const LIST_ID = { ...BOARD_ID, list_id: p.integer().required() };

const parentOf = (loaded: LoadedProject): BoardParent => ({ kind: 'project', id: loaded.project.id });
/** The board's project as BasicProjectDetails (from what the loader has: no query). */
const projectOf = (deps: Deps, loaded: LoadedProject) => presentProject(deps, loaded.user, loaded.project, { view: 'basic' }, loaded.extras);

export const boardRoutes: Route[] = [
  route({
    method: 'GET',
    path: BASE,
    auth: 'user',
    load: 'project',
    ability: 'read_board',
    summary: "List a project's boards (its default board is made on first read)",
    response: { ...BOARD, list: true },
    handler: async ({ ctx, deps, loaded }) => {
      await ensureDefaultBoard(deps.db, parentOf(loaded));
      const boards = await paginate<BoardRow>(ctx, deps.db, boardsQuery(deps.db, parentOf(loaded)));
      return presentBoards(deps, boards, await projectOf(deps, loaded));
    },
  }),

  route({
    method: 'GET',
    path: `${BASE}/:board_id`,
    auth: 'user',
    load: 'project',
    ability: 'read_board',
    summary: 'Get a project board',
    response: BOARD,
    handler: async ({ deps, loaded, path }) => oneBoard(deps, parentOf(loaded), path.board_id, await projectOf(deps, loaded)),
  }),

  route({
    method: 'GET',
    path: `${BASE}/:board_id/lists`,
    auth: 'user',
    load: 'project',
    ability: 'read_board',
    params: BOARD_ID,
    summary: "List a project board's label lists",
    response: { ...LIST, list: true },
    handler: ({ ctx, deps, loaded, params }) => boardLists(ctx, deps, parentOf(loaded), params.board_id),
  }),

  route({
    method: 'GET',
    path: `${BASE}/:board_id/lists/:list_id`,
    auth: 'user',
    load: 'project',
    ability: 'read_board',
    params: LIST_ID,
    summary: 'Get a list of a project board',
    response: LIST,
    handler: ({ deps, loaded, params }) => boardList(deps, parentOf(loaded), params.board_id, params.list_id),
  }),

  route({
    method: 'POST',
    path: `${BASE}/:board_id/lists`,
    auth: 'user',
    load: 'project',
    params: { ...BOARD_ID, label_id: p.integer().required() },
    summary: 'Create a label list on a project board',
    response: LIST,
    handler: ({ deps, loaded, params, authorize, can }) =>
      createList(deps, parentOf(loaded), params.board_id, params.label_id, can('read_label'), { authorize: () => authorize('admin_list') }),
  }),

  route({
    method: 'PUT',
    path: `${BASE}/:board_id/lists/:list_id`,
    auth: 'user',
    load: 'project',
    params: { ...LIST_ID, position: p.integer().required() },
    summary: 'Move a list of a project board to a position',
    response: LIST,
    handler: ({ deps, loaded, params, authorize }) =>
      moveList(deps, parentOf(loaded), params.board_id, params.list_id, params.position, { authorize: () => authorize('admin_list') }),
  }),

  route({
    method: 'DELETE',
    path: `${BASE}/:board_id/lists/:list_id`,
    auth: 'user',
    load: 'project',
    ability: 'admin_list',
    params: LIST_ID,
    summary: 'Delete a list of a project board',
    handler: ({ ctx, deps, loaded, params }) => deleteList(ctx, deps, parentOf(loaded), params.board_id, params.list_id),
  }),
];
