// Checks bodies against the served OpenAPI document's schemas (GET /api/v4/openapi.json,
// components/schemas/<name>): for entities GitLab committed no schema of, which the document
// describes in Wharf's own words (src/api/core/openapi/entity_schemas.ts).
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { expect } from 'chai';
import type { TestServer } from './server.js';

export type SchemaCheck = (body: unknown, schema: string, list?: boolean) => void;

export async function openApiSchemas(s: TestServer): Promise<SchemaCheck> {
  const doc = await s.get('/openapi.json', { token: null });
  expect(doc.status).to.equal(200);
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  formats.default(ajv);
  ajv.addSchema({ $id: 'wharf:openapi', components: doc.body.components });
  return (body, schema, list = false) => {
    const ref = { $ref: `wharf:openapi#/components/schemas/${schema}` };
    const validate = ajv.compile(list ? { type: 'array', items: ref } : ref);
    expect(validate(body), `${schema}: ${ajv.errorsText(validate.errors)}`).to.equal(true);
  };
}
