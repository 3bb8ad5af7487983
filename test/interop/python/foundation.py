#!/usr/bin/python3
"""Drives a running Wharf server with Debian's python-gitlab 3.12, used the way people use it.

Environment:
    WHARF_URL    base URL of the server, e.g. http://127.0.0.1:8080
    WHARF_TOKEN  a personal access token of the administrator `root` (scope api)
    WHARF_BULK   how many projects to create for the pagination steps (default 250)

Prints one line per step ("ok   <step>  <seconds>") and exits 0, or prints what went wrong to
stderr and exits 1. Run by test/interop/python-gitlab.test.ts; can be run by hand against any server.
"""
import math
import os
import sys
import time
import traceback
import warnings

import gitlab
import gitlab.const

URL = os.environ["WHARF_URL"]
TOKEN = os.environ["WHARF_TOKEN"]
BULK = int(os.environ.get("WHARF_BULK", "250"))
# The per-request timeout keeps a hung server from hanging the test.
TIMEOUT = 30

# A Link header pointing at another host breaks pagination: python-gitlab only warns, we fail.
warnings.filterwarnings("error", message="The base URL in the server response differs")
# `as_list=False` is deprecated in 3.12 but still the spelling many scripts use.
warnings.filterwarnings("ignore", category=DeprecationWarning, message=".*as_list.*")


class Mismatch(Exception):
    pass


def expect(condition, message):
    if not condition:
        raise Mismatch(message)


def expect_equal(actual, expected, what):
    if actual != expected:
        raise Mismatch(f"{what}: expected {expected!r}, got {actual!r}")


# State shared between steps (the objects python-gitlab hands back).
S = {}


def connect_as_root():
    gl = gitlab.Gitlab(URL, private_token=TOKEN, timeout=TIMEOUT)
    gl.auth()  # GET /user
    expect_equal(gl.user.username, "root", "gl.user.username after gl.auth()")
    expect_equal(gl.user.is_admin, True, "root's is_admin")
    S["gl"] = gl


def read_version():
    version, revision = S["gl"].version()  # GET /version; ('unknown', 'unknown') on any failure
    expect(version != "unknown", "gl.version() returned 'unknown': GET /version failed or lacked version/revision")
    expect(version.startswith("10.8"), f"version {version!r} does not start with 10.8")
    expect(isinstance(revision, str) and revision != "unknown", f"revision {revision!r}")


def create_users():
    gl = S["gl"]
    for name in ("alice", "bob"):
        user = gl.users.create({
            "username": name,
            "email": f"{name}@example.com",
            "name": name.capitalize(),
            "password": "correct-horse-battery",
            "skip_confirmation": True,
        })
        expect(isinstance(user.id, int), f"created user {name} has id {user.id!r}")
        expect_equal(user.username, name, "created user's username")
        expect_equal(gl.users.get(user.id).username, name, f"gl.users.get({user.id}).username")
        found = gl.users.list(username=name)
        expect_equal([u.id for u in found], [user.id], f"gl.users.list(username={name!r}) ids")
        S[name] = user


def impersonate_alice():
    alice = S["alice"]
    token = alice.impersonationtokens.create({"name": "interop", "scopes": ["api"]})
    expect(isinstance(getattr(token, "token", None), str) and token.token,
           "impersonation token response has no `token` string")
    expect_equal(token.impersonation, True, "impersonation token's `impersonation`")
    expect_equal(token.scopes, ["api"], "impersonation token's scopes")
    expect_equal(token.active, True, "impersonation token's `active`")
    listed = [t.id for t in alice.impersonationtokens.list(get_all=True)]
    expect(token.id in listed, f"token {token.id} missing from impersonation token list {listed}")

    as_alice = gitlab.Gitlab(URL, private_token=token.token, timeout=TIMEOUT)
    as_alice.auth()
    expect_equal(as_alice.user.username, "alice", "gl.user.username when authenticated by the impersonation token")
    S["as_alice"] = as_alice


def create_group():
    group = S["gl"].groups.create({"name": "Interop Group", "path": "interop-group"})
    expect_equal(group.path, "interop-group", "group path")
    expect_equal(group.full_path, "interop-group", "group full_path")
    expect_equal(S["gl"].groups.get(group.id).name, "Interop Group", "gl.groups.get(id).name")
    S["group"] = group


def create_project_in_group():
    group = S["group"]
    project = S["gl"].projects.create({"name": "Interop Project", "namespace_id": group.id})
    expect_equal(project.path, "interop-project", "project path derived from its name")
    expect_equal(project.path_with_namespace, "interop-group/interop-project", "path_with_namespace")
    expect_equal(project.namespace["id"], group.id, "project namespace id")
    S["project"] = project


def add_members():
    group, project = S["group"], S["project"]
    alice, bob = S["alice"], S["bob"]
    member = group.members.create({"user_id": alice.id, "access_level": gitlab.const.DEVELOPER_ACCESS})
    expect_equal((member.username, member.access_level), ("alice", 30), "group member created")
    member = project.members.create({"user_id": bob.id, "access_level": gitlab.const.REPORTER_ACCESS})
    expect_equal((member.username, member.access_level), ("bob", 20), "project member created")


def list_members():
    group, project = S["group"], S["project"]
    # GitLab 10.8 makes the group's creator its owner; a group project gets no direct members.
    got = {m.username: m.access_level for m in group.members.list(get_all=True)}
    expect_equal(got, {"root": 50, "alice": 30}, "group.members.list()")
    got = {m.username: m.access_level for m in project.members.list(get_all=True)}
    expect_equal(got, {"bob": 20}, "project.members.list()")
    expect_equal(project.members.get(S["bob"].id).access_level, 20, "project.members.get(bob).access_level")
    # Alice reaches the project through her group membership.
    seen = S["as_alice"].projects.get(project.id)
    expect_equal(seen.path_with_namespace, "interop-group/interop-project", "alice's view of the group project")


def create_many_projects():
    gl = S["gl"]
    S["baseline"] = len(gl.projects.list(get_all=True))
    started = time.monotonic()
    ids = []
    for i in range(BULK):
        ids.append(gl.projects.create({"name": f"bulk-{i:03d}"}).id)
    elapsed = time.monotonic() - started
    print(f"     created {BULK} projects in {elapsed:.2f} s ({BULK / elapsed:.0f}/s)", flush=True)
    expect_equal(len(set(ids)), BULK, "distinct ids among the created projects")
    S["bulk_ids"] = ids


def check_listing(items, what):
    """Every project once, all bulk projects present, newest first."""
    ids = [p.id for p in items]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    expect(not duplicates, f"{what}: duplicate project ids {duplicates[:10]}")
    expected = S["baseline"] + BULK
    expect_equal(len(ids), expected, f"{what}: number of projects")
    missing = set(S["bulk_ids"]) - set(ids)
    expect(not missing, f"{what}: {len(missing)} created projects missing, e.g. {sorted(missing)[:5]}")
    created = [p.created_at for p in items]
    expect(created == sorted(created, reverse=True), f"{what}: not ordered by created_at desc (GitLab's default)")
    return ids


def list_all_pages():
    gl = S["gl"]
    S["all_ids"] = check_listing(gl.projects.list(all=True), "gl.projects.list(all=True)")
    check_listing(gl.projects.list(get_all=True, per_page=100), "gl.projects.list(get_all=True, per_page=100)")


def iterate_lazily():
    gl = S["gl"]
    total = S["baseline"] + BULK
    lazy = gl.projects.list(iterator=True)
    expect_equal(len(lazy), total, "len(gl.projects.list(iterator=True)) (X-Total)")
    expect_equal(lazy.per_page, 20, "X-Per-Page")
    expect_equal(lazy.total_pages, math.ceil(total / 20), "X-Total-Pages")
    expect_equal(lazy.current_page, 1, "X-Page")
    expect_equal(lazy.prev_page, None, "X-Prev-Page on page 1")
    expect_equal(lazy.next_page, 2, "X-Next-Page on page 1")
    ids = check_listing(list(lazy), "gl.projects.list(iterator=True)")
    expect_equal(ids, S["all_ids"], "iterator order vs list(all=True) order")
    ids = check_listing(list(gl.projects.list(as_list=False)), "gl.projects.list(as_list=False)")
    expect_equal(ids, S["all_ids"], "as_list=False order vs list(all=True) order")


def list_single_pages():
    gl = S["gl"]
    first = gl.projects.list(get_all=False)
    expect_equal([p.id for p in first], S["all_ids"][:20], "first page of gl.projects.list()")
    page = gl.projects.list(page=3, per_page=7)
    expect_equal([p.id for p in page], S["all_ids"][14:21], "gl.projects.list(page=3, per_page=7)")
    beyond = gl.projects.list(page=1000, per_page=50)
    expect_equal(beyond, [], "a page past the end")


def get_by_id_and_path():
    gl, project = S["gl"], S["project"]
    by_id = gl.projects.get(project.id)
    expect_equal(by_id.path_with_namespace, "interop-group/interop-project", "gl.projects.get(id)")
    by_path = gl.projects.get("interop-group/interop-project")  # sent as interop-group%2Finterop-project
    expect_equal(by_path.id, project.id, "gl.projects.get('interop-group/interop-project').id")


def save_description():
    gl, project = S["gl"], S["project"]
    project = gl.projects.get(project.id)
    project.description = "changed by python-gitlab"
    project.save()  # PUT /projects/:id with the changed attribute only
    expect_equal(project.description, "changed by python-gitlab", "description on the object after save()")
    expect_equal(gl.projects.get(project.id).description, "changed by python-gitlab", "description after reload")
    S["project"] = project


def delete_project():
    gl, project = S["gl"], S["project"]
    project.delete()
    # GitLab 10.8 answers 202 and deletes in the background: allow a few seconds.
    deadline = time.monotonic() + 10
    while True:
        try:
            gl.projects.get(project.id)
        except gitlab.exceptions.GitlabGetError as e:
            expect_equal(e.response_code, 404, "status of GET on a deleted project")
            break
        expect(time.monotonic() < deadline, f"project {project.id} still readable 10 s after project.delete()")
        time.sleep(0.2)
    remaining = len(gl.projects.list(get_all=True, per_page=100))
    expect_equal(remaining, S["baseline"] + BULK - 1, "number of projects after the delete")


STEPS = [
    connect_as_root,
    read_version,
    create_users,
    impersonate_alice,
    create_group,
    create_project_in_group,
    add_members,
    list_members,
    create_many_projects,
    list_all_pages,
    iterate_lazily,
    list_single_pages,
    get_by_id_and_path,
    save_description,
    delete_project,
]


def describe(error):
    if isinstance(error, Mismatch):
        return f"mismatch: {error}"
    if isinstance(error, gitlab.exceptions.GitlabError):
        body = error.response_body
        if isinstance(body, bytes):
            body = body.decode("utf-8", "replace")
        return (f"{type(error).__name__}: HTTP {error.response_code}: {error.error_message}\n"
                f"response body: {str(body)[:2000]}")
    return "".join(traceback.format_exception(type(error), error, error.__traceback__))


def main():
    print(f"python-gitlab {gitlab.__version__} against {URL}", flush=True)
    for step in STEPS:
        started = time.monotonic()
        try:
            step()
        except Exception as error:  # noqa: BLE001 - every failure is reported the same way
            print(f"FAIL {step.__name__}", flush=True)
            print(f"step {step.__name__} failed: {describe(error)}", file=sys.stderr, flush=True)
            return 1
        print(f"ok   {step.__name__:<24} {time.monotonic() - started:6.2f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
