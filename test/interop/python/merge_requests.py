#!/usr/bin/python3
"""python-gitlab 3.12's merge request manager (list, get, create, save, changes, commits,
participants, pipelines) and forks against a running Wharf, used as people use them.

Environment: WHARF_URL, WHARF_TOKEN (root's token). Exits 0, or prints the mismatch and exits 1.
"""
import gitlab

from _wharf import commit, connect, expect, gl, run


def main():
    project = gl.projects.create({"name": "mr-core-interop", "visibility": "private"})
    commit(project, "master", "README.md", "hello\n", "Initial")
    first = commit(project, "feature", "a.txt", "a\n", "Add a", start="master")
    second = commit(project, "feature", "b.txt", "b\n", "Add b")
    commit(project, "other", "c.txt", "c\n", "Add c", start="master")

    # Create with labels, list and filter, get.
    mr = project.mergerequests.create(
        {"source_branch": "feature", "target_branch": "master", "title": "Add files", "labels": "review,backend", "description": "two files"}
    )
    expect(mr.iid == 1 and mr.state == "opened", f"created: iid {mr.iid}, state {mr.state}")
    expect(sorted(mr.labels) == ["backend", "review"], f"labels: {mr.labels}")
    expect(mr.changes_count == "2", f"changes_count: {mr.changes_count!r}")
    expect(mr.sha == second.id, f"sha {mr.sha} is not the feature head {second.id}")
    project.mergerequests.create({"source_branch": "other", "target_branch": "master", "title": "WIP: add c"})
    listed = [m.iid for m in project.mergerequests.list(all=True)]
    expect(listed == [2, 1], f"listed: {listed}")
    wip = [m.iid for m in project.mergerequests.list(labels=["review"])]
    expect(wip == [1], f"by label: {wip}")
    mine = [m.iid for m in gl.mergerequests.list(scope="created-by-me", all=True) if m.project_id == project.id]
    expect(sorted(mine) == [1, 2], f"/merge_requests created by me: {mine}")
    simple = project.mergerequests.list(view="simple", iids=[2])
    expect([m.title for m in simple] == ["WIP: add c"], f"simple view: {[m.title for m in simple]}")
    got = project.mergerequests.get(1)
    expect(got.diff_refs["head_sha"] == second.id, f"diff_refs: {got.diff_refs}")
    expect(got.work_in_progress is False and project.mergerequests.get(2).work_in_progress is True, "work_in_progress")

    # Commits, changes, participants, pipelines.
    ids = [c.id for c in got.commits()]
    expect(ids == [second.id, first.id], f"commits: {ids}")
    changes = got.changes()
    paths = [c["new_path"] for c in changes["changes"]]
    expect(paths == ["a.txt", "b.txt"], f"changes: {paths}")
    expect(all(c["new_file"] for c in changes["changes"]), "changes are new files")
    people = [u["username"] for u in got.participants()]
    expect(people == ["root"], f"participants: {people}")
    expect(list(got.pipelines.list()) == [], "no pipelines")

    # Save: edit fields, close and reopen.
    got.title = "Add two files"
    got.description = "edited"
    got.labels = ["backend"]
    got.save()
    again = project.mergerequests.get(1)
    expect((again.title, again.description, again.labels) == ("Add two files", "edited", ["backend"]), f"after save: {again.title}, {again.labels}")
    again.state_event = "close"
    again.save()
    expect(project.mergerequests.get(1).state == "closed", "did not close")
    closed = [m.iid for m in project.mergerequests.list(state="closed")]
    expect(closed == [1], f"closed: {closed}")
    again.state_event = "reopen"
    again.save()
    expect(project.mergerequests.get(1).state == "opened", "did not reopen")

    # Errors: a second open merge request for the same branches.
    try:
        project.mergerequests.create({"source_branch": "feature", "target_branch": "master", "title": "dup"})
        raise AssertionError("a duplicate merge request was created")
    except gitlab.exceptions.GitlabCreateError as err:
        expect(err.response_code == 409, f"duplicate answered {err.response_code}")

    # A fork, and a merge request from it into its parent.
    user = gl.users.create({"email": "forker@example.com", "username": "mr-forker", "name": "Forker", "password": "secret-password-1"})
    project.members.create({"user_id": user.id, "access_level": 20})
    token = user.impersonationtokens.create({"name": "t", "scopes": ["api"]})
    ugl = connect(token.token)
    fork = ugl.projects.get(project.id).forks.create({})
    expect(fork.forked_from_project["id"] == project.id, f"forked from {fork.forked_from_project}")
    ufork = ugl.projects.get(fork.id)
    commit(ufork, "from-fork", "f.txt", "f\n", "Fork work", start="master")
    fmr = ufork.mergerequests.create({"source_branch": "from-fork", "target_branch": "master", "title": "From fork", "target_project_id": project.id})
    expect(fmr.project_id == project.id and fmr.source_project_id == fork.id, f"fork MR: {fmr.project_id}, {fmr.source_project_id}")
    seen = project.mergerequests.get(fmr.iid)
    expect([c["new_path"] for c in seen.changes()["changes"]] == ["f.txt"], "fork MR changes")
    forks = [f.id for f in project.forks.list()]
    expect(forks == [fork.id], f"forks: {forks}")


if __name__ == "__main__":
    run(main)
