// Domain errors: what a service, finder or policy answers when a change or a lookup cannot
// go on (a stale file, a ref that moved, a merge request that cannot be merged, a name taken,
// a validation failure …). Each carries exactly what GitLab 10.8's answer to it needs and no
// HTTP: the one table in src/http/errors.ts turns each class into GitLab's status and body,
// so that services never build HTTP errors nor branch on status codes.
//
// Why in store/: the bottom layer is the one place every other layer may import (the layering
// of ARCHITECTURE.md, checked by test/lint/dependency-cruiser.cjs), and these classes, like
// the row types and stored codes beside them, are the vocabulary all layers share. They
// import nothing. (git/ keeps its own low-level errors, which services translate.)

/** The base class: the error middleware knows how to answer every subclass. */
export abstract class DomainError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** A record that is missing or invisible: `404 <thing> Not Found` (or `404 Not Found`). */
export class NotFound extends DomainError {
  constructor(readonly thing?: string) {
    super(thing ? `${thing} not found` : 'not found');
  }
}

/** A missing thing GitLab names in a message of its own (`404 {"message": "Tag does not exist"}`). */
export class Missing extends DomainError {
  constructor(message: string) {
    super(message);
  }
}

/** A plain record lookup that failed (GitLab's ActiveRecord::RecordNotFound: `404 Not found`). */
export class RecordNotFound extends DomainError {
  constructor() {
    super('record not found');
  }
}

/** Model validation failed: GitLab's `{"message": {"field": ["error", …]}}` with 400. */
export class Invalid extends DomainError {
  constructor(readonly fields: Record<string, string[]>) {
    super(JSON.stringify(fields));
  }
}

/** The service refused the change with a message of its own (a service `error(message)`: 400). */
export class Rejected extends DomainError {
  constructor(message: string) {
    super(message);
  }
}

/** A file action's `last_commit_id` is not the file's last commit any more (400 with the message). */
export class StaleFile extends DomainError {
  constructor(message: string) {
    super(message);
  }
}

/** A branch moved (or appeared) between reading it and moving it by compare-and-swap (400). */
export class RefMoved extends DomainError {
  constructor(message: string) {
    super(message);
  }
}

/** The state changed under the request, or the thing exists already: 409 with a message. */
export class Conflict extends DomainError {
  constructor(message = '409 Conflict') {
    super(message);
  }
}

/** Validation failed while forking: GitLab answers the model's errors with 409. */
export class ForkFailed extends DomainError {
  constructor(readonly fields: Record<string, string[]>) {
    super(JSON.stringify(fields));
  }
}

/** A model refusal GitLab renders as its full messages with 422 (`{"message": [...]}`). */
export class Unprocessable extends DomainError {
  constructor(readonly messages: string[]) {
    super(messages.join(', '));
  }
}

/** The user's project limit is reached: 403 with the model's message in a list. */
export class LimitReached extends DomainError {
  constructor(message: string) {
    super(message);
  }
}

/** Source and target make no merge request (same branch, not a fork): 422 `{"error": [reason]}`. */
export class InvalidMergeRequestBranches extends DomainError {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** An open merge request between the same branches exists: 409 naming their titles. */
export class DuplicateMergeRequest extends DomainError {
  /** `message` is GitLab's validation text, titles included. */
  constructor(message: string) {
    super(message);
  }
}

/** The user may not merge (or cancel the automatic merge of) the merge request: 401. */
export class NotAllowed extends DomainError {
  constructor() {
    super('not allowed');
  }
}

/** The merge request is not in a mergeable state (closed, WIP, a branch gone, nothing to merge): 405. */
export class NotMergeable extends DomainError {
  constructor() {
    super('not mergeable');
  }
}

/** The merge request does not merge (a conflict, no fast-forward where one is needed): 406. */
export class CannotMerge extends DomainError {
  constructor() {
    super('Branch cannot be merged');
  }
}

/** The `sha` given to merge is not the source branch's head (409 naming the head). */
export class ShaMismatch extends DomainError {
  constructor(readonly head: string) {
    super(`SHA does not match HEAD of source branch: ${head}`);
  }
}
