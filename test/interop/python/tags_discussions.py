#!/usr/bin/python3
"""python-gitlab 3.12's tags, release notes, discussions (issues, merge requests, commits),
resolving, commit comments/refs/merge requests and the issue extras against a running Wharf.

python-gitlab 3.x dropped ProjectTag.set_release_description (GitLab 10.8's
POST/PUT .../tags/:tag_name/release); `set_release_description` below is its 2.x body.

Environment: WHARF_URL, WHARF_TOKEN (root's token). Exits 0, or prints the mismatch and exits 1.
"""
import gitlab

from _wharf import commit, expect, gl, run


def set_release_description(tag, description):
    """python-gitlab 2.x's ProjectTag.set_release_description: POST the first time, then PUT."""
    path = f"{tag.manager.path}/{tag.encoded_id}/release"
    data = {"description": description}
    if tag.release is None:
        tag.release = tag.manager.gitlab.http_post(path, post_data=data)
    else:
        tag.release = tag.manager.gitlab.http_put(path, post_data=data)


def tags(project):
    tag = project.tags.create({"tag_name": "v1.0", "ref": "master", "message": "Release 1.0"})
    expect(tag.name == "v1.0" and tag.message == "Release 1.0" and tag.release is None, f"tag: {tag.attributes}")
    light = project.tags.create({"tag_name": "light", "ref": "master"})
    expect(light.message is None and light.target == light.commit["id"], f"lightweight tag: {light.attributes}")
    expect(sorted(t.name for t in project.tags.list(all=True)) == ["light", "v1.0"], "tags listed")
    set_release_description(tag, "First release")
    expect(tag.release == {"tag_name": "v1.0", "description": "First release"}, f"release: {tag.release}")
    set_release_description(tag, "First release, amended")
    expect(project.tags.get("v1.0").release["description"] == "First release, amended", "release not updated")
    try:
        project.tags.create({"tag_name": "v1.0", "ref": "master"})
        raise AssertionError("a tag was created twice")
    except gitlab.exceptions.GitlabCreateError as err:
        expect(err.response_code == 400 and "Tag v1.0 already exists" in str(err), f"duplicate tag: {err}")
    light.delete()
    expect([t.name for t in project.tags.list(all=True)] == ["v1.0"], "tag not deleted")


def issue_discussions(project):
    issue = project.issues.create({"title": "Talk about it"})
    d = issue.discussions.create({"body": "Shall we?"})
    expect(d.individual_note is False and d.attributes["notes"][0]["body"] == "Shall we?", f"discussion: {d.attributes}")
    note = d.notes.create({"body": "Yes"})
    expect(note.type == "DiscussionNote", f"reply: {note.attributes}")
    got = issue.discussions.get(d.id)
    expect([n["body"] for n in got.attributes["notes"]] == ["Shall we?", "Yes"], f"thread: {got.attributes}")
    reply = got.notes.get(note.id)
    reply.body = "Yes, let's"
    reply.save()
    expect(got.notes.get(note.id).body == "Yes, let's", "reply not edited")
    got.notes.delete(note.id)
    expect(len(issue.discussions.get(d.id).attributes["notes"]) == 1, "reply not deleted")
    expect([x.id for x in issue.discussions.list(all=True)] == [d.id], "discussions listed")
    people = [u["username"] for u in issue.participants()]
    expect(people == ["root"], f"participants: {people}")
    return issue


def merge_request_discussions(project):
    commit(project, "feature", "feature.txt", "one\ntwo\n", "Feature", start="master")
    mr = project.mergerequests.create({"source_branch": "feature", "target_branch": "master", "title": "Feature"})
    refs = project.mergerequests.get(mr.iid).diff_refs
    position = {
        "base_sha": refs["base_sha"], "start_sha": refs["start_sha"], "head_sha": refs["head_sha"],
        "position_type": "text", "new_path": "feature.txt", "new_line": 2,
    }
    on_line = mr.discussions.create({"body": "On line two", "position": position})
    first = on_line.attributes["notes"][0]
    expect(first["type"] == "DiffNote" and first["position"]["new_line"] == 2, f"diff note: {first}")
    expect(first["resolvable"] is True and first["resolved"] is False, f"resolvable: {first}")

    project.only_allow_merge_if_all_discussions_are_resolved = True
    project.save()
    try:
        mr.merge()
        raise AssertionError("merged with an unresolved discussion")
    except gitlab.exceptions.GitlabMRClosedError as err:
        expect(err.response_code == 405, f"held merge answered {err.response_code}")
    d = mr.discussions.get(on_line.id)
    d.resolved = True
    d.save()
    expect(mr.discussions.get(on_line.id).attributes["notes"][0]["resolved"] is True, "discussion not resolved")
    sha = project.branches.get("feature").commit["id"]
    expect([m["iid"] for m in project.commits.get(sha).merge_requests()] == [mr.iid], "commit's merge requests")
    mr.merge()
    expect(mr.state == "merged", f"state after resolving: {mr.state}")
    return sha


def commits(project, sha):
    c = project.commits.get(sha)
    comment = c.comments.create({"note": "Nice line", "path": "feature.txt", "line": 1, "line_type": "new"})
    expect(comment.path == "feature.txt" and comment.line == 1 and comment.line_type == "new", f"comment: {comment.attributes}")
    expect([x.note for x in c.comments.list(all=True)] == ["Nice line"], "comments listed")
    names = sorted((r["type"], r["name"]) for r in c.refs())
    expect(("branch", "feature") in names and ("branch", "master") in names, f"refs: {names}")
    thread = c.discussions.create({"body": "About this commit"})
    expect(thread.attributes["notes"][0]["noteable_type"] == "Commit", f"commit discussion: {thread.attributes}")


def main():
    project = gl.projects.create({"name": "tags-discussions-interop", "visibility": "private"})
    commit(project, "master", "README.md", "hello\n", "Initial")
    tags(project)
    issue = issue_discussions(project)
    sha = merge_request_discussions(project)
    commits(project, sha)

    detail = issue.user_agent_detail()
    expect(detail["user_agent"].startswith("python-gitlab") and detail["akismet_submitted"] is False, f"user agent: {detail}")
    expect(issue.closed_by() == [], "closed_by")
    other = gl.projects.create({"name": "tags-discussions-target", "visibility": "private"})
    issue.move(other.id)
    expect(issue.project_id == other.id and issue.iid == 1, f"moved: {issue.attributes}")
    expect(project.issues.get(1).state == "closed", "the old issue is still open")
    print("ok tags and discussions")


if __name__ == "__main__":
    run(main)
