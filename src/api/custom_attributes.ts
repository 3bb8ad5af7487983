// Custom attributes (GitLab 10.8's CustomAttributesEndpoints, included by users, projects and
// groups): admin-only key/value pairs on a subject — list, get, set (create or replace) and
// delete one key. `customAttributeRoutes('users' | 'projects' | 'groups')` gives the four routes
// of one subject kind, for that family's table to include.
//
// Wharf asks for an admin first (401 anonymous, 403 others), then finds the subject (404 User /
// Project / Group Not Found), then the parameters. 10.8 found the subject before its
// `authorize! :read_custom_attribute` (GlobalPolicy: admins); asking first tells a non-admin
// nothing about the subject, not even whether it exists.
import { route, type Route } from './core/route.js';
import { notFound, validationError } from '../http/errors.js';
import { p } from '../http/params.js';
import { customAttributesOf, findCustomAttribute } from '../finders/custom_attributes.js';
import { deleteCustomAttribute, setCustomAttribute } from '../services/custom_attributes.js';

export type CustomAttributeSubjects = 'users' | 'projects' | 'groups';

const LOAD = { users: 'user', projects: 'project', groups: 'group' } as const;

const ATTRIBUTE = { schema: 'CustomAttribute' } as const;
const key = { key: p.string().required() };

/** The loaded subject's id, whichever kind the route loaded. */
function subjectId(req: { target?: { id: number }; project?: { id: number }; group?: { id: number } }): number {
  const subject = req.target ?? req.project ?? req.group;
  if (!subject) throw new Error('custom attribute route without a subject');
  return subject.id;
}

const present = (r: { key: string; value: string }) => ({ key: r.key, value: r.value });

/** The columns hold 255 characters: a longer key or value is the model's 400, not the database's error. */
const MAX_LENGTH = 255;

function lengthErrors(values: Record<string, string>): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const [field, v] of Object.entries(values)) if (v.length > MAX_LENGTH) errors[field] = [`is too long (maximum is ${MAX_LENGTH} characters)`];
  return errors;
}

/** The four custom attribute routes of `/<subjects>/:id`. */
export function customAttributeRoutes(subjects: CustomAttributeSubjects): Route[] {
  const load = LOAD[subjects];
  const base = `/${subjects}/:id/custom_attributes`;
  const name = `${load}'s`;
  return [
    route({
      method: 'GET',
      path: base,
      auth: 'admin',
      load,
      summary: `List a ${name} custom attributes`,
      response: { ...ATTRIBUTE, list: true },
      handler: async (req) => (await customAttributesOf(req.deps.db, load, subjectId(req))).map(present),
    }),

    route({
      method: 'GET',
      path: `${base}/:key`,
      auth: 'admin',
      load,
      params: key,
      summary: `Get one custom attribute of a ${load}`,
      response: ATTRIBUTE,
      handler: async (req) => {
        const row = await findCustomAttribute(req.deps.db, load, subjectId(req), req.params.key);
        if (!row) throw notFound('Custom Attribute');
        return present(row);
      },
    }),

    route({
      method: 'PUT',
      path: `${base}/:key`,
      auth: 'admin',
      load,
      params: { ...key, value: p.string().required() },
      summary: `Set a custom attribute of a ${load}`,
      response: ATTRIBUTE,
      handler: async (req) => {
        const { key: k, value } = req.params;
        const errors = lengthErrors({ key: k, value });
        if (Object.keys(errors).length) throw validationError(errors);
        await setCustomAttribute(req.deps.db, load, subjectId(req), k, value);
        return { key: k, value };
      },
    }),

    route({
      method: 'DELETE',
      path: `${base}/:key`,
      auth: 'admin',
      load,
      params: key,
      summary: `Delete a custom attribute of a ${load}`,
      handler: async (req) => {
        if (!(await deleteCustomAttribute(req.deps.db, load, subjectId(req), req.params.key))) throw notFound('Custom Attribute');
      },
    }),
  ];
}
