// Project issue boards (GitLab 10.8 lib/api/boards.rb, boards_responses.rb): the permission
// matrix over visibilities and roles, the default board with its hidden backlog and closed
// lists, label lists created, moved and deleted with their positions renumbered as 10.8's
// services do, the errors and their bodies, pagination, and what removes boards and lists
// (a label, a project). Shapes are checked against 10.8's board.json and boards.json.
import { expect } from 'chai';
import { useServerWithRoles, projectWithRoles, type Account } from '../helpers/roles.js';
import { expectSchema } from '../helpers/schema.js';
import { created } from '../helpers/projects.js';

const UNAUTHORIZED = { message: '401 Unauthorized' };
const FORBIDDEN = { message: '403 Forbidden' };
const PROJECT_NOT_FOUND = { message: '404 Project Not Found' };
const NOT_FOUND = { message: '404 Not found' };
const LABEL_NOT_FOUND = { message: { error: 'Label not found!' } };
const NOT_MOVED = { message: { error: 'List could not be moved!' } };
const BASIC_PROJECT_KEYS = [
  'id',
  'description',
  'name',
  'name_with_namespace',
  'path',
  'path_with_namespace',
  'created_at',
  'default_branch',
  'tag_list',
  'ssh_url_to_repo',
  'http_url_to_repo',
  'web_url',
  'avatar_url',
  'star_count',
  'forks_count',
  'last_activity_at',
];

type Setup = { id: number; base: string; board: number; labels: number[] };

describe('Project boards', () => {
  const { s, owner, master, dev, reporter, guest, stranger, admin } = useServerWithRoles();

  let counter = 0;
  /** A project with the cast as members, three labels, and its board read once (so made). */
  async function setup(visibility = 'private', extra: Record<string, unknown> = {}): Promise<Setup> {
    const { id } = await projectWithRoles(s, owner, { master, dev, reporter, guest }, { name: `board${++counter}`, visibility, ...extra });
    const labels: number[] = [];
    for (const [name, color] of [
      ['Development', '#FFAABB'],
      ['Testing', '#FFAACC'],
      ['UX', '#FF0000'],
    ]) {
      labels.push(created(await s.post(`/projects/${id}/labels`, { token: owner.token, json: { name, color } })).id);
    }
    const boards = await s.get(`/projects/${id}/boards`, { token: owner.token });
    expect(boards.status, boards.text).to.equal(200);
    return { id, base: `/projects/${id}/boards/${boards.body[0].id}/lists`, board: boards.body[0].id, labels };
  }

  const addList = async (p: Setup, labelId: number, who: Account = owner) => created(await s.post(p.base, { token: who.token, json: { label_id: labelId } }));
  const positions = async (p: Setup) => ((await s.get(p.base, { token: owner.token })).body as { label: { id: number }; position: number }[]).map((l) => [l.label.id, l.position]);

  describe('the default board', () => {
    it('is made on the first read, once, with backlog and closed lists that the API never shows', async () => {
      const { id } = await projectWithRoles(s, owner, {}, { name: 'fresh' });
      expect(await s.db('boards').where({ project_id: id })).to.have.length(0);
      const first = await s.get(`/projects/${id}/boards`, { token: owner.token });
      expect(first.status).to.equal(200);
      expectSchema(first.body, 'public_api/v4/boards.json');
      expect(first.body).to.have.length(1);
      expect(first.body[0].lists).to.deep.equal([]);
      expect(Object.keys(first.body[0]).sort()).to.deep.equal(['id', 'lists', 'project']);
      expect(Object.keys(first.body[0].project).sort()).to.deep.equal([...BASIC_PROJECT_KEYS].sort());
      expect(first.body[0].project.id).to.equal(id);
      expect(first.headers.get('x-total')).to.equal('1');
      expect(first.headers.get('x-page')).to.equal('1');
      expect(first.headers.get('x-per-page')).to.equal('20');
      const again = await s.get(`/projects/${id}/boards`, { token: owner.token });
      expect(again.body.map((b: { id: number }) => b.id)).to.deep.equal([first.body[0].id]);
      const lists = await s.db('lists').where({ board_id: first.body[0].id }).orderBy('list_type');
      expect(lists.map((l) => [l.list_type, l.label_id, l.position])).to.deep.equal([
        [0, null, null],
        [2, null, null],
      ]);
      expect((await s.get(`/projects/${id}/boards/${first.body[0].id}/lists`, { token: owner.token })).body).to.deep.equal([]);
    });

    it('is made once when first reads come together, and lists made together get distinct positions', async () => {
      const { id } = await projectWithRoles(s, owner, {}, { name: 'crowd' });
      const reads = await Promise.all(Array.from({ length: 6 }, () => s.get(`/projects/${id}/boards`, { token: owner.token })));
      expect(reads.map((r) => r.status)).to.deep.equal(Array(6).fill(200));
      expect(new Set(reads.map((r) => r.body[0].id)).size).to.equal(1);
      expect(await s.db('boards').where({ project_id: id })).to.have.length(1);
      expect(await s.db('lists').where({ board_id: reads[0].body[0].id })).to.have.length(2);
      const labels = [];
      for (const name of ['a', 'b', 'c', 'd']) labels.push(created(await s.post(`/projects/${id}/labels`, { token: owner.token, json: { name, color: '#000000' } })).id);
      const base = `/projects/${id}/boards/${reads[0].body[0].id}/lists`;
      const made = await Promise.all(labels.map((label_id) => s.post(base, { token: owner.token, json: { label_id } })));
      expect(made.map((r) => r.status)).to.deep.equal([201, 201, 201, 201]);
      expect(made.map((r) => r.body.position).sort()).to.deep.equal([0, 1, 2, 3]);
    });

    it('shows one board by id, in board.json', async () => {
      const p = await setup();
      await addList(p, p.labels[0]);
      const r = await s.get(`/projects/${p.id}/boards/${p.board}`, { token: guest.token });
      expect(r.status).to.equal(200);
      expectSchema(r.body, 'public_api/v4/board.json');
      expect(r.body.lists).to.have.length(1);
      expect(r.body.lists[0].label).to.deep.equal({ id: p.labels[0], name: 'Development', color: '#FFAABB', description: null });
    });

    it('answers 404 Not found for a board that is not the project’s', async () => {
      const p = await setup();
      const other = await setup();
      for (const path of [
        `/projects/${p.id}/boards/${other.board}`,
        `/projects/${p.id}/boards/999999`,
        `/projects/${p.id}/boards/abc`,
        `/projects/${p.id}/boards/${other.board}/lists`,
      ]) {
        const r = await s.get(path, { token: owner.token });
        expect(r.status, path).to.equal(404);
        expect(r.body).to.deep.equal(NOT_FOUND);
      }
    });

    it('answers 400 for a board or list id that is not a number, where 10.8 declares it an Integer', async () => {
      const p = await setup();
      const board = await s.get(`/projects/${p.id}/boards/abc/lists`, { token: owner.token });
      expect(board.status).to.equal(400);
      expect(board.body).to.deep.equal({ error: 'board_id is invalid' });
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const r = await s.request(method, `${p.base}/abc`, { token: owner.token, json: method === 'PUT' ? { position: 0 } : undefined });
        expect(r.status, method).to.equal(400);
        expect(r.body).to.deep.equal({ error: 'list_id is invalid' });
      }
    });
  });

  describe('permissions', () => {
    const readers = (p: Setup, listId: number) => [`/projects/${p.id}/boards`, `/projects/${p.id}/boards/${p.board}`, p.base, `${p.base}/${listId}`];

    /** Creating, moving and deleting a list as `who` (a fresh list each time, so the state is back after). */
    async function writes(p: Setup, who: Account | null, listId: number) {
      const token = who ? who.token : null;
      const post = await s.post(p.base, { token, json: { label_id: p.labels[1] } });
      const put = await s.put(`${p.base}/${listId}`, { token, json: { position: 1 } });
      const del = await s.delete(`${p.base}/${listId}`, { token });
      return { post, put, del };
    }

    for (const visibility of ['private', 'internal', 'public']) {
      describe(`on ${visibility === 'internal' ? 'an' : 'a'} ${visibility} project`, () => {
        let p: Setup;
        let listId: number;
        before(async () => {
          p = await setup(visibility);
          listId = (await addList(p, p.labels[0])).id;
          await addList(p, p.labels[2]);
        });

        it('answers 401 to the anonymous for every route', async () => {
          for (const path of readers(p, listId)) {
            const r = await s.get(path, { token: null });
            expect(r.status, path).to.equal(401);
            expect(r.body).to.deep.equal(UNAUTHORIZED);
          }
          const { post, put, del } = await writes(p, null, listId);
          for (const r of [post, put, del]) {
            expect(r.status).to.equal(401);
            expect(r.body).to.deep.equal(UNAUTHORIZED);
          }
        });

        it(visibility === 'private' ? 'hides the project from a non-member (404)' : 'lets a non-member read but not change lists (403)', async () => {
          for (const path of readers(p, listId)) {
            const r = await s.get(path, { token: stranger.token });
            if (visibility === 'private') {
              expect(r.status, path).to.equal(404);
              expect(r.body).to.deep.equal(PROJECT_NOT_FOUND);
            } else expect(r.status, path).to.equal(200);
          }
          const { post, put, del } = await writes(p, stranger, listId);
          for (const r of [post, put, del]) {
            expect(r.status).to.equal(visibility === 'private' ? 404 : 403);
            expect(r.body).to.deep.equal(visibility === 'private' ? PROJECT_NOT_FOUND : FORBIDDEN);
          }
        });

        it('lets a guest read but not change lists (403)', async () => {
          for (const path of readers(p, listId)) expect((await s.get(path, { token: guest.token })).status, path).to.equal(200);
          const { post, put, del } = await writes(p, guest, listId);
          for (const r of [post, put, del]) {
            expect(r.status).to.equal(403);
            expect(r.body).to.deep.equal(FORBIDDEN);
          }
        });

        it('lets reporters, developers, maintainers and admins change lists', async () => {
          for (const who of [reporter, dev, master, admin]) {
            for (const path of readers(p, listId)) expect((await s.get(path, { token: who.token })).status, path).to.equal(200);
            const made = await s.post(p.base, { token: who.token, json: { label_id: p.labels[1] } });
            expect(made.status, made.text).to.equal(201);
            const moved = await s.put(`${p.base}/${made.body.id}`, { token: who.token, json: { position: 0 } });
            expect(moved.status, moved.text).to.equal(200);
            const gone = await s.delete(`${p.base}/${made.body.id}`, { token: who.token });
            expect(gone.status).to.equal(204);
            expect(gone.text).to.equal('');
            expect(await positions(p)).to.deep.equal([
              [p.labels[0], 0],
              [p.labels[2], 1],
            ]);
          }
        });
      });
    }

    it('keeps boards when issues are disabled (10.8 ties them to no feature)', async () => {
      const p = await setup('private', { issues_enabled: false });
      expect((await s.get(`/projects/${p.id}/boards`, { token: guest.token })).status).to.equal(200);
      const list = await addList(p, p.labels[0], reporter);
      expect((await s.get(p.base, { token: guest.token })).body.map((l: { id: number }) => l.id)).to.deep.equal([list.id]);
      expect((await s.delete(`${p.base}/${list.id}`, { token: reporter.token })).status).to.equal(204);
    });

    it('refuses list changes on an archived project, admins included, and keeps reads', async () => {
      const p = await setup('private');
      const list = await addList(p, p.labels[0]);
      expect((await s.post(`/projects/${p.id}/archive`, { token: owner.token })).status).to.equal(201);
      expect((await s.get(p.base, { token: guest.token })).status).to.equal(200);
      for (const who of [master, admin]) {
        const { post, put, del } = await writes(p, who, list.id);
        for (const r of [post, put, del]) {
          expect(r.status).to.equal(403);
          expect(r.body).to.deep.equal(FORBIDDEN);
        }
      }
    });

    it('checks the label before the permission on create, and finds the list before it on a move', async () => {
      const p = await setup('public');
      const bad = await s.post(p.base, { token: guest.token, json: { label_id: 424242 } });
      expect(bad.status).to.equal(400);
      expect(bad.body).to.deep.equal(LABEL_NOT_FOUND);
      const missing = await s.put(`${p.base}/424242`, { token: guest.token, json: { position: 0 } });
      expect(missing.status).to.equal(404);
      expect(missing.body).to.deep.equal(NOT_FOUND);
      const del = await s.delete(`${p.base}/424242`, { token: guest.token });
      expect(del.status).to.equal(403);
      expect(del.body).to.deep.equal(FORBIDDEN);
    });
  });

  describe('lists', () => {
    it('are created after the last one, read in position order, and paged', async () => {
      const p = await setup();
      const made = [];
      for (const label of p.labels) made.push(await addList(p, label));
      expect(made.map((l) => l.position)).to.deep.equal([0, 1, 2]);
      expect(Object.keys(made[0]).sort()).to.deep.equal(['id', 'label', 'position']);
      expect(made[2].label).to.deep.equal({ id: p.labels[2], name: 'UX', color: '#FF0000', description: null });
      const page1 = await s.get(p.base, { token: owner.token, query: { per_page: 2 } });
      expect(page1.body.map((l: { id: number }) => l.id)).to.deep.equal([made[0].id, made[1].id]);
      expect(page1.headers.get('x-total')).to.equal('3');
      expect(page1.headers.get('x-total-pages')).to.equal('2');
      expect(page1.headers.get('x-next-page')).to.equal('2');
      expect(page1.headers.get('link')).to.contain('rel="next"');
      const page2 = await s.get(p.base, { token: owner.token, query: { per_page: 2, page: 2 } });
      expect(page2.body.map((l: { id: number }) => l.id)).to.deep.equal([made[2].id]);
      const one = await s.get(`${p.base}/${made[1].id}`, { token: owner.token });
      expect(one.body).to.deep.equal(made[1]);
      const board = await s.get(`/projects/${p.id}/boards/${p.board}`, { token: owner.token });
      expect(board.body.lists).to.deep.equal(made);
      expectSchema(board.body, 'public_api/v4/board.json');
    });

    it('refuse a missing, unknown, foreign or already listed label', async () => {
      const p = await setup();
      const other = await setup();
      const missing = await s.post(p.base, { token: owner.token, json: {} });
      expect(missing.status).to.equal(400);
      expect(missing.body).to.deep.equal({ error: 'label_id is missing' });
      const invalid = await s.post(p.base, { token: owner.token, json: { label_id: 'x' } });
      expect(invalid.status).to.equal(400);
      expect(invalid.body).to.deep.equal({ error: 'label_id is invalid' });
      for (const labelId of [999999, other.labels[0]]) {
        const r = await s.post(p.base, { token: owner.token, json: { label_id: labelId } });
        expect(r.status, String(labelId)).to.equal(400);
        expect(r.body).to.deep.equal(LABEL_NOT_FOUND);
      }
      await addList(p, p.labels[0]);
      const twice = await s.post(p.base, { token: owner.token, json: { label_id: p.labels[0] } });
      expect(twice.status).to.equal(400);
      expect(twice.body).to.deep.equal({ message: { label_id: ['has already been taken'] } });
      const noBoard = await s.post(`/projects/${p.id}/boards/999999/lists`, { token: owner.token, json: { label_id: p.labels[1] } });
      expect(noBoard.status).to.equal(404);
      expect(noBoard.body).to.deep.equal(NOT_FOUND);
      expect(await positions(p)).to.deep.equal([[p.labels[0], 0]]);
    });

    it('move, shifting the lists between the old and the new position', async () => {
      const p = await setup();
      const [a, , c] = [await addList(p, p.labels[0]), await addList(p, p.labels[1]), await addList(p, p.labels[2])];
      const down = await s.put(`${p.base}/${a.id}`, { token: owner.token, json: { position: 2 } });
      expect(down.status).to.equal(200);
      expect(down.body).to.deep.equal({ ...a, position: 2 });
      expect(await positions(p)).to.deep.equal([
        [p.labels[1], 0],
        [p.labels[2], 1],
        [p.labels[0], 2],
      ]);
      const up = await s.put(`${p.base}/${c.id}`, { token: owner.token, json: { position: 0 } });
      expect(up.body.position).to.equal(0);
      expect(await positions(p)).to.deep.equal([
        [p.labels[2], 0],
        [p.labels[1], 1],
        [p.labels[0], 2],
      ]);
    });

    it('refuse a move to where the list is, below 0 or past the last list, and bad positions', async () => {
      const p = await setup();
      const a = await addList(p, p.labels[0]);
      await addList(p, p.labels[1]);
      for (const position of [0, -1, 2, 99]) {
        const r = await s.put(`${p.base}/${a.id}`, { token: owner.token, json: { position } });
        expect(r.status, String(position)).to.equal(400);
        expect(r.body).to.deep.equal(NOT_MOVED);
      }
      const missing = await s.put(`${p.base}/${a.id}`, { token: owner.token, json: {} });
      expect(missing.status).to.equal(400);
      expect(missing.body).to.deep.equal({ error: 'position is missing' });
      const invalid = await s.put(`${p.base}/${a.id}`, { token: owner.token, json: { position: 'first' } });
      expect(invalid.status).to.equal(400);
      expect(invalid.body).to.deep.equal({ error: 'position is invalid' });
      const unknown = await s.put(`${p.base}/999999`, { token: owner.token, json: { position: 1 } });
      expect(unknown.status).to.equal(404);
      expect(unknown.body).to.deep.equal(NOT_FOUND);
      expect(await positions(p)).to.deep.equal([
        [p.labels[0], 0],
        [p.labels[1], 1],
      ]);
    });

    it('are deleted with 204, the later ones moving up; 404 for an unknown one, 412 when modified since', async () => {
      const p = await setup();
      const a = await addList(p, p.labels[0]);
      await addList(p, p.labels[1]);
      await addList(p, p.labels[2]);
      const stale = await s.delete(`${p.base}/${a.id}`, { token: owner.token, headers: { 'If-Unmodified-Since': 'Thu, 01 Jan 2015 00:00:00 GMT' } });
      expect(stale.status).to.equal(412);
      expect(stale.body).to.deep.equal({ message: '412 Precondition Failed' });
      const r = await s.delete(`${p.base}/${a.id}`, { token: owner.token });
      expect(r.status).to.equal(204);
      expect(await positions(p)).to.deep.equal([
        [p.labels[1], 0],
        [p.labels[2], 1],
      ]);
      for (const path of [`${p.base}/${a.id}`, `${p.base}/999999`]) {
        const again = await s.delete(path, { token: owner.token });
        expect(again.status).to.equal(404);
        expect(again.body).to.deep.equal(NOT_FOUND);
      }
    });

    it('never find the backlog and closed lists', async () => {
      const p = await setup();
      const hidden = await s.db('lists').where({ board_id: p.board });
      expect(hidden).to.have.length(2);
      for (const l of hidden) {
        expect((await s.get(`${p.base}/${l.id}`, { token: owner.token })).status).to.equal(404);
        expect((await s.put(`${p.base}/${l.id}`, { token: owner.token, json: { position: 0 } })).status).to.equal(404);
        expect((await s.delete(`${p.base}/${l.id}`, { token: owner.token })).status).to.equal(404);
      }
    });
  });

  describe('what removes them', () => {
    it('a deleted label takes its list with it; the others keep their positions', async () => {
      const p = await setup();
      await addList(p, p.labels[0]);
      await addList(p, p.labels[1]);
      await addList(p, p.labels[2]);
      expect((await s.delete(`/projects/${p.id}/labels`, { token: owner.token, query: { name: 'Testing' } })).status).to.equal(204);
      expect(await positions(p)).to.deep.equal([
        [p.labels[0], 0],
        [p.labels[2], 2],
      ]);
    });

    it('a deleted project takes its board and lists with it', async () => {
      const p = await setup();
      await addList(p, p.labels[0]);
      expect((await s.delete(`/projects/${p.id}`, { token: owner.token })).status).to.equal(202);
      await s.drainJobs();
      expect(await s.db('boards').where({ id: p.board })).to.deep.equal([]);
      expect(await s.db('lists').where({ board_id: p.board })).to.deep.equal([]);
    });
  });
});
