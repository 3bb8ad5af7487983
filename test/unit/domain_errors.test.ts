// The one table that turns domain errors (src/store/domain_errors.ts) into GitLab 10.8's
// statuses and bodies (src/http/errors.ts): every class has its answer, and each answer is
// the exact status and body GitLab gives (the API tests check them end to end too).
import { expect } from 'chai';
import * as domain from '../../src/store/domain_errors.js';
import { domainAnswer } from '../../src/http/errors.js';

const fields = { title: ["can't be blank"] };

const cases: [domain.DomainError, number, unknown][] = [
  [new domain.NotFound('Project'), 404, { message: '404 Project Not Found' }],
  [new domain.NotFound(), 404, { message: '404 Not Found' }],
  [new domain.RecordNotFound(), 404, { message: '404 Not found' }],
  [new domain.Missing('Tag does not exist'), 404, { message: 'Tag does not exist' }],
  [new domain.Invalid(fields), 400, { message: fields }],
  [new domain.Rejected('Branch name is invalid'), 400, { message: 'Branch name is invalid' }],
  [
    new domain.StaleFile('You are attempting to update a file that has changed since you started editing it.'),
    400,
    { message: 'You are attempting to update a file that has changed since you started editing it.' },
  ],
  [new domain.RefMoved('Could not update branch x. Please refresh and try again.'), 400, { message: 'Could not update branch x. Please refresh and try again.' }],
  [new domain.Conflict('Label already exists'), 409, { message: 'Label already exists' }],
  [new domain.Conflict(), 409, { message: '409 Conflict' }],
  [new domain.ForkFailed(fields), 409, { message: fields }],
  [new domain.Unprocessable(['Name is invalid']), 422, { message: ['Name is invalid'] }],
  [new domain.LimitReached('Your project limit is 0 projects!'), 403, { message: ['Your project limit is 0 projects!'] }],
  [new domain.InvalidMergeRequestBranches('Source project is not a fork of the target project'), 422, { error: ['Source project is not a fork of the target project'] }],
  [new domain.DuplicateMergeRequest('Cannot Create: This merge request already exists: ["t"]'), 409, { message: ['Cannot Create: This merge request already exists: ["t"]'] }],
  [new domain.NotAllowed(), 401, { message: '401 Unauthorized' }],
  [new domain.NotMergeable(), 405, { message: '405 Method Not Allowed' }],
  [new domain.CannotMerge(), 406, { message: 'Branch cannot be merged' }],
  [new domain.ShaMismatch('abc123'), 409, { message: 'SHA does not match HEAD of source branch: abc123' }],
];

describe('Domain errors → GitLab answers', () => {
  for (const [err, status, body] of cases) {
    it(`answers ${err.name} with ${status}`, () => {
      const answer = domainAnswer(err)!;
      expect(answer.status).to.equal(status);
      expect(answer.body).to.deep.equal(body);
    });
  }

  it('has an answer for every domain error class, and a case above for each', () => {
    const classes = Object.values(domain).filter((v): v is typeof domain.NotFound => typeof v === 'function' && v.prototype instanceof domain.DomainError);
    expect(classes.length).to.be.greaterThan(10);
    const tested = new Set(cases.map(([err]) => err.constructor));
    for (const cls of classes) expect(tested.has(cls), `${cls.name} has no case`).to.equal(true);
  });

  it('has no answer for a class the table does not list (the middleware logs it and answers 500)', () => {
    class Unlisted extends domain.DomainError {}
    expect(domainAnswer(new Unlisted('x'))).to.equal(undefined);
  });
});
