// What project and group boards answer alike (GitLab 10.8's API::BoardsResponses): the board
// of `:board_id` and a label list of it (`404 Not found` when missing: 10.8's `find`), a page
// of boards with their label lists (two queries for the page), and the API's own refusals of
// a list change: 400 `{"message": {"error": "Label not found!"}}` for a label the board may
// not show, and `"List could not be moved!"` for a refused move.
import type Koa from 'koa';
import type { Deps } from '../deps.js';
import { ApiError, recordNotFound } from '../http/errors.js';
import { paginate } from '../http/pagination.js';
import { checkUnmodifiedSince } from '../http/conditional.js';
import type { BoardParent, BoardRow, LabelListRow } from '../store/board_rows.js';
import { availableLabel, findBoard, findLabelList, labelListsOfBoards, labelListsQuery } from '../finders/boards.js';
import { createLabelList } from '../services/boards/create_list.js';
import { moveLabelList } from '../services/boards/move_list.js';
import { destroyLabelList } from '../services/boards/destroy_list.js';
import { boardEntity, listEntity, type BoardEntity, type ListEntity } from '../entities/board.js';

export const BOARD = { schema: 'Board' } as const;
export const LIST = { schema: 'List' } as const;

async function boardOr404(deps: Deps, parent: BoardParent, boardId: string | number): Promise<BoardRow> {
  const board = await findBoard(deps.db, parent, boardId);
  if (!board) throw recordNotFound();
  return board;
}

async function listOr404(deps: Deps, board: BoardRow, listId: string | number): Promise<LabelListRow> {
  const list = await findLabelList(deps.db, board.id, listId);
  if (!list) throw recordNotFound();
  return list;
}

/** The board of `:board_id` with its lists (404 Not found). */
export async function oneBoard(deps: Deps, parent: BoardParent, boardId: string, project: Record<string, unknown> | null): Promise<BoardEntity> {
  return (await presentBoards(deps, [await boardOr404(deps, parent, boardId)], project))[0];
}

/** Renders boards with their label lists; `project` is their project's BasicProjectDetails (null for a group's). */
export async function presentBoards(deps: Deps, boards: BoardRow[], project: Record<string, unknown> | null): Promise<BoardEntity[]> {
  const lists = await labelListsOfBoards(
    deps.db,
    boards.map((b) => b.id),
  );
  return boards.map((b) => boardEntity(b, project, lists.get(b.id) ?? []));
}

/** render_api_error!({ error: message }, 400). */
function listRefused(message: 'Label not found!' | 'List could not be moved!'): ApiError {
  return new ApiError(400, { message: { error: message } });
}

/** A page of the board's label lists. */
export async function boardLists(ctx: Koa.Context, deps: Deps, parent: BoardParent, boardId: number): Promise<ListEntity[]> {
  const board = await boardOr404(deps, parent, boardId);
  return (await paginate<LabelListRow>(ctx, deps.db, labelListsQuery(deps.db, board.id))).map(listEntity);
}

export async function boardList(deps: Deps, parent: BoardParent, boardId: number, listId: number): Promise<ListEntity> {
  return listEntity(await listOr404(deps, await boardOr404(deps, parent, boardId), listId));
}

/** What a list change needs besides its parameters: the permission check, asked where 10.8 asks it. */
interface Change {
  authorize(): void;
}

/** POST …/lists: the label (400), then the permission, then the board (404). `labelsReadable`: the user may read the parent's labels (10.8's LabelsFinder asks). */
export async function createList(deps: Deps, parent: BoardParent, boardId: number, labelId: number, labelsReadable: boolean, change: Change): Promise<ListEntity> {
  if (!labelsReadable || !(await availableLabel(deps.db, parent, labelId))) throw listRefused('Label not found!');
  change.authorize();
  const board = await boardOr404(deps, parent, boardId);
  const id = await createLabelList(deps.db, parent, board, labelId);
  return listEntity(await listOr404(deps, board, id));
}

/** PUT …/lists/:list_id: the board and list (404), then the permission, then the move (400 when refused). */
export async function moveList(deps: Deps, parent: BoardParent, boardId: number, listId: number, position: number, change: Change): Promise<ListEntity> {
  const board = await boardOr404(deps, parent, boardId);
  const list = await listOr404(deps, board, listId);
  change.authorize();
  if (!(await moveLabelList(deps.db, list.id, position))) throw listRefused('List could not be moved!');
  return listEntity(await listOr404(deps, board, list.id));
}

/** DELETE …/lists/:list_id (the route asked the permission): the board and list (404), If-Unmodified-Since (412), then 204. */
export async function deleteList(ctx: Koa.Context, deps: Deps, parent: BoardParent, boardId: number, listId: number): Promise<void> {
  const list = await listOr404(deps, await boardOr404(deps, parent, boardId), listId);
  checkUnmodifiedSince(ctx, list.updated_at); // destroy_conditionally!
  await destroyLabelList(deps.db, list.id);
}
