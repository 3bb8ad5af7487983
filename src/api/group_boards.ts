// Group issue boards (GitLab 10.8 lib/api/group_boards.rb, which CE 10.8 mounts): the group's
// board with its label lists, and the lists' reads, creation, moves and deletion. Every route
// needs a signed-in user; reading needs only to see the group (404 Group Not Found
// otherwise: 10.8 asks no board ability here), changing lists admin_list (reporters of the
// group or an ancestor, admins). The checks come in 10.8's order (board_responses.ts). A
// group board shows only group labels; Wharf keeps project labels only, so creating a list
// on it always answers 400 "Label not found!". The board has no project (`project: null`).
// The group's default board is made when its boards are first read.
import { route, type Route } from './core/route.js';
import { p } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import type { NamespaceRow } from '../store/rows.js';
import type { BoardParent, BoardRow } from '../store/board_rows.js';
import { boardsQuery } from '../finders/boards.js';
import { ensureDefaultBoard } from '../services/boards/default_board.js';
import { BOARD, LIST, boardList, boardLists, createList, deleteList, moveList, oneBoard, presentBoards } from './board_responses.js';

const BASE = '/groups/:id/boards';
const BOARD_ID = { board_id: p.integer().required() };
const LIST_ID = { ...BOARD_ID, list_id: p.integer().required() };

const parentOf = (group: NamespaceRow): BoardParent => ({ kind: 'group', id: group.id });

export const groupBoardRoutes: Route[] = [
  route({
    method: 'GET',
    path: BASE,
    auth: 'user',
    load: 'group',
    summary: "List a group's boards (its default board is made on first read)",
    response: { ...BOARD, list: true },
    handler: async ({ ctx, deps, group }) => {
      await ensureDefaultBoard(deps.db, parentOf(group));
      return presentBoards(deps, await paginate<BoardRow>(ctx, deps.db, boardsQuery(deps.db, parentOf(group))), null);
    },
  }),

  route({
    method: 'GET',
    path: `${BASE}/:board_id`,
    auth: 'user',
    load: 'group',
    summary: 'Get a group board',
    response: BOARD,
    handler: ({ deps, group, path }) => oneBoard(deps, parentOf(group), path.board_id, null),
  }),

  route({
    method: 'GET',
    path: `${BASE}/:board_id/lists`,
    auth: 'user',
    load: 'group',
    params: BOARD_ID,
    summary: "List a group board's label lists",
    response: { ...LIST, list: true },
    handler: ({ ctx, deps, group, params }) => boardLists(ctx, deps, parentOf(group), params.board_id),
  }),

  route({
    method: 'GET',
    path: `${BASE}/:board_id/lists/:list_id`,
    auth: 'user',
    load: 'group',
    params: LIST_ID,
    summary: 'Get a list of a group board',
    response: LIST,
    handler: ({ deps, group, params }) => boardList(deps, parentOf(group), params.board_id, params.list_id),
  }),

  route({
    method: 'POST',
    path: `${BASE}/:board_id/lists`,
    auth: 'user',
    load: 'group',
    params: { ...BOARD_ID, label_id: p.integer().required() },
    summary: 'Create a label list on a group board (group labels only)',
    response: LIST,
    handler: ({ deps, group, params, authorize }) => createList(deps, parentOf(group), params.board_id, params.label_id, true, { authorize: () => authorize('admin_list') }),
  }),

  route({
    method: 'PUT',
    path: `${BASE}/:board_id/lists/:list_id`,
    auth: 'user',
    load: 'group',
    params: { ...LIST_ID, position: p.integer().required() },
    summary: 'Move a list of a group board to a position',
    response: LIST,
    handler: ({ deps, group, params, authorize }) =>
      moveList(deps, parentOf(group), params.board_id, params.list_id, params.position, { authorize: () => authorize('admin_list') }),
  }),

  route({
    method: 'DELETE',
    path: `${BASE}/:board_id/lists/:list_id`,
    auth: 'user',
    load: 'group',
    ability: 'admin_list',
    params: LIST_ID,
    summary: 'Delete a list of a group board',
    handler: ({ ctx, deps, group, params }) => deleteList(ctx, deps, parentOf(group), params.board_id, params.list_id),
  }),
];
