// Group issue boards (GitLab 10.8 lib/api/group_boards.rb, which CE 10.8 mounts): the
// permission matrix (reading needs only to see the group; changing lists needs a reporter of
// the group or of an ancestor), the default board (no project, hidden backlog and closed
// lists), pagination, 10.8's error bodies, and that deleting the group removes its board.
// Wharf keeps no group labels, so no list can be made on a group board through the API (400
// "Label not found!", as 10.8 answers for a project's label); to test moves and deletions the
// suite seeds the label lists a group label would have made, straight into `lists`.
import { expect } from 'chai';
import { useServerWithRoles, type Account } from '../helpers/roles.js';
import { expectSchema } from '../helpers/schema.js';
import { created } from '../helpers/projects.js';
import { DEVELOPER, GUEST, MASTER, OWNER, REPORTER } from '../../src/policy/levels.js';

const UNAUTHORIZED = { message: '401 Unauthorized' };
const FORBIDDEN = { message: '403 Forbidden' };
const GROUP_NOT_FOUND = { message: '404 Group Not Found' };
const NOT_FOUND = { message: '404 Not found' };
const LABEL_NOT_FOUND = { message: { error: 'Label not found!' } };

type Setup = { id: number; path: string; base: string; board: number; labels: number[] };

describe('Group boards', () => {
  const { s, owner, master, dev, reporter, guest, stranger, admin } = useServerWithRoles();

  let counter = 0;
  async function group(visibility: string, parentId?: number) {
    const n = ++counter;
    return created(await s.post('/groups', { json: { name: `Team ${n}`, path: `team${n}`, visibility, ...(parentId ? { parent_id: parentId } : {}) } }));
  }

  async function addMembers(groupId: number, members: [Account, number][]) {
    for (const [who, level] of members) {
      const r = await s.post(`/groups/${groupId}/members`, { json: { user_id: who.user.id, access_level: level } });
      expect(r.status, r.text).to.equal(201);
    }
  }

  /** A group with the cast as members, a project with three labels, and the group's board read once. */
  async function setup(visibility = 'private'): Promise<Setup> {
    const g = await group(visibility);
    await addMembers(g.id, [
      [owner, OWNER],
      [master, MASTER],
      [dev, DEVELOPER],
      [reporter, REPORTER],
      [guest, GUEST],
    ]);
    const project = created(await s.post('/projects', { json: { name: `p${counter}`, namespace_id: g.id } }));
    const labels: number[] = [];
    for (const name of ['Doing', 'Review', 'Done']) labels.push(created(await s.post(`/projects/${project.id}/labels`, { json: { name, color: '#428BCA' } })).id);
    const boards = await s.get(`/groups/${g.id}/boards`, { token: owner.token });
    expect(boards.status, boards.text).to.equal(200);
    const board = boards.body[0].id;
    return { id: g.id, path: g.full_path, base: `/groups/${g.id}/boards/${board}/lists`, board, labels };
  }

  /** The label lists of the board, as a group label's lists would be (0, 1, 2, ...), replacing any; their ids. */
  async function seedLists(g: Setup): Promise<number[]> {
    await s.db('lists').where({ board_id: g.board, list_type: 1 }).delete();
    const ids: number[] = [];
    for (const [position, labelId] of g.labels.entries()) {
      const stamp = new Date().toISOString();
      const [row] = await s.db('lists').insert({ board_id: g.board, label_id: labelId, list_type: 1, position, created_at: stamp, updated_at: stamp }).returning('id');
      ids.push(Number(typeof row === 'object' ? row.id : row));
    }
    return ids;
  }

  const positions = async (g: Setup) => ((await s.get(g.base, { token: owner.token })).body as { id: number; position: number }[]).map((l) => [l.id, l.position]);

  it('makes the default board on the first read, once, without a project, in boards.json', async () => {
    const g = await group('private');
    await addMembers(g.id, [[guest, GUEST]]);
    expect(await s.db('boards').where({ group_id: g.id })).to.have.length(0);
    const r = await s.get(`/groups/${g.id}/boards`, { token: guest.token });
    expect(r.status).to.equal(200);
    expectSchema(r.body, 'public_api/v4/boards.json');
    expect(r.body).to.deep.equal([{ id: r.body[0].id, project: null, lists: [] }]);
    expect(r.headers.get('x-total')).to.equal('1');
    expect(r.headers.get('x-total-pages')).to.equal('1');
    const again = await s.get(`/groups/${encodeURIComponent(g.full_path)}/boards`, { token: guest.token });
    expect(again.body.map((b: { id: number }) => b.id)).to.deep.equal([r.body[0].id]);
    const hidden = await s.db('lists').where({ board_id: r.body[0].id }).orderBy('list_type');
    expect(hidden.map((l) => l.list_type)).to.deep.equal([0, 2]);
    const one = await s.get(`/groups/${g.id}/boards/${r.body[0].id}`, { token: guest.token });
    expectSchema(one.body, 'public_api/v4/board.json');
    expect(one.body).to.deep.equal(r.body[0]);
  });

  it('shows the board’s label lists in position order, paged', async () => {
    const g = await setup();
    const ids = await seedLists(g);
    const page = await s.get(g.base, { token: guest.token, query: { per_page: 2 } });
    expect(page.status).to.equal(200);
    expect(page.body.map((l: { id: number }) => l.id)).to.deep.equal(ids.slice(0, 2));
    expect(page.headers.get('x-total')).to.equal('3');
    expect(page.headers.get('x-next-page')).to.equal('2');
    expect(page.body[0]).to.deep.equal({ id: ids[0], label: { id: g.labels[0], name: 'Doing', color: '#428BCA', description: null }, position: 0 });
    const one = await s.get(`${g.base}/${ids[2]}`, { token: guest.token });
    expect(one.body.position).to.equal(2);
    const board = await s.get(`/groups/${g.id}/boards/${g.board}`, { token: guest.token });
    expectSchema(board.body, 'public_api/v4/board.json');
    expect(board.body.lists.map((l: { id: number }) => l.id)).to.deep.equal(ids);
  });

  it('answers 404 Not found for an unknown board or list', async () => {
    const g = await setup();
    const other = await setup();
    for (const path of [`/groups/${g.id}/boards/${other.board}`, `/groups/${g.id}/boards/999999/lists`, `${g.base}/999999`]) {
      const r = await s.get(path, { token: owner.token });
      expect(r.status, path).to.equal(404);
      expect(r.body).to.deep.equal(NOT_FOUND);
    }
  });

  it('finds no label for a list: a project’s label is not a group board’s (400)', async () => {
    const g = await setup();
    for (const labelId of [g.labels[0], 999999]) {
      const r = await s.post(g.base, { token: owner.token, json: { label_id: labelId } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal(LABEL_NOT_FOUND);
    }
    const missing = await s.post(g.base, { token: owner.token, json: {} });
    expect(missing.status).to.equal(400);
    expect(missing.body).to.deep.equal({ error: 'label_id is missing' });
  });

  describe('permissions', () => {
    const readers = (g: Setup, listId: number) => [`/groups/${g.id}/boards`, `/groups/${g.id}/boards/${g.board}`, g.base, `${g.base}/${listId}`];

    async function writes(g: Setup, token: string | null, listId: number) {
      return [
        await s.post(g.base, { token, json: { label_id: g.labels[0] } }),
        await s.put(`${g.base}/${listId}`, { token, json: { position: 1 } }),
        await s.delete(`${g.base}/${listId}`, { token }),
      ];
    }

    it('answers 401 to the anonymous, even on a public group', async () => {
      const g = await setup('public');
      const [listId] = await seedLists(g);
      for (const path of readers(g, listId)) {
        const r = await s.get(path, { token: null });
        expect(r.status, path).to.equal(401);
        expect(r.body).to.deep.equal(UNAUTHORIZED);
      }
      for (const r of await writes(g, null, listId)) {
        expect(r.status).to.equal(401);
        expect(r.body).to.deep.equal(UNAUTHORIZED);
      }
    });

    it('hides a private group from a non-member (404 Group Not Found)', async () => {
      const g = await setup('private');
      const [listId] = await seedLists(g);
      for (const path of readers(g, listId)) {
        const r = await s.get(path, { token: stranger.token });
        expect(r.status, path).to.equal(404);
        expect(r.body).to.deep.equal(GROUP_NOT_FOUND);
      }
      for (const r of await writes(g, stranger.token, listId)) {
        expect(r.status).to.equal(404);
        expect(r.body).to.deep.equal(GROUP_NOT_FOUND);
      }
    });

    for (const visibility of ['internal', 'public']) {
      it(`lets a non-member read the board of ${visibility === 'internal' ? 'an' : 'a'} ${visibility} group, and refuses changes`, async () => {
        const g = await setup(visibility);
        const [listId] = await seedLists(g);
        for (const path of readers(g, listId)) expect((await s.get(path, { token: stranger.token })).status, path).to.equal(200);
        const [post, put, del] = await writes(g, stranger.token, listId);
        expect(post.status).to.equal(400); // the label is looked for first
        expect(post.body).to.deep.equal(LABEL_NOT_FOUND);
        for (const r of [put, del]) {
          expect(r.status).to.equal(403);
          expect(r.body).to.deep.equal(FORBIDDEN);
        }
      });
    }

    it('lets a guest read and not change lists', async () => {
      const g = await setup('private');
      const [listId] = await seedLists(g);
      for (const path of readers(g, listId)) expect((await s.get(path, { token: guest.token })).status, path).to.equal(200);
      const [, put, del] = await writes(g, guest.token, listId);
      for (const r of [put, del]) {
        expect(r.status).to.equal(403);
        expect(r.body).to.deep.equal(FORBIDDEN);
      }
      const unknown = await s.put(`${g.base}/999999`, { token: guest.token, json: { position: 1 } });
      expect(unknown.status).to.equal(404); // a move finds the list before asking
      expect((await s.delete(`${g.base}/999999`, { token: guest.token })).status).to.equal(403); // a deletion asks first
    });

    it('lets reporters, developers, maintainers, owners and admins move and delete lists', async () => {
      const g = await setup('private');
      for (const who of [reporter, dev, master, owner, admin]) {
        const [a, b, c] = await seedLists(g);
        const moved = await s.put(`${g.base}/${a}`, { token: who.token, json: { position: 2 } });
        expect(moved.status, moved.text).to.equal(200);
        expect(moved.body.position).to.equal(2);
        expect(await positions(g)).to.deep.equal([
          [b, 0],
          [c, 1],
          [a, 2],
        ]);
        const refused = await s.put(`${g.base}/${a}`, { token: who.token, json: { position: 3 } });
        expect(refused.status).to.equal(400);
        expect(refused.body).to.deep.equal({ message: { error: 'List could not be moved!' } });
        const gone = await s.delete(`${g.base}/${b}`, { token: who.token });
        expect(gone.status).to.equal(204);
        expect(await positions(g)).to.deep.equal([
          [c, 0],
          [a, 1],
        ]);
      }
    });

    it('counts a reporter of an ancestor group as a reporter of its subgroup', async () => {
      const top = await group('private');
      const sub = await group('private', top.id);
      await addMembers(top.id, [[reporter, REPORTER]]);
      const boards = await s.get(`/groups/${sub.id}/boards`, { token: reporter.token });
      expect(boards.status, boards.text).to.equal(200);
      const project = created(await s.post('/projects', { json: { name: 'sub-project', namespace_id: sub.id } }));
      const label = created(await s.post(`/projects/${project.id}/labels`, { json: { name: 'X', color: '#FF0000' } }));
      const g: Setup = { id: sub.id, path: sub.full_path, base: `/groups/${sub.id}/boards/${boards.body[0].id}/lists`, board: boards.body[0].id, labels: [label.id] };
      const [listId] = await seedLists(g);
      expect((await s.delete(`${g.base}/${listId}`, { token: reporter.token })).status).to.equal(204);
    });
  });

  it('goes with its group', async () => {
    const g = await setup();
    await seedLists(g);
    expect((await s.delete(`/groups/${g.id}`)).status).to.equal(204);
    await s.drainJobs();
    expect(await s.db('boards').where({ id: g.board })).to.deep.equal([]);
    expect(await s.db('lists').where({ board_id: g.board })).to.deep.equal([]);
  });
});
