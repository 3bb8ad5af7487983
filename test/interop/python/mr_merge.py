#!/usr/bin/python3
"""python-gitlab 3.12's merge request merge, closes_issues and cancel_merge_when_pipeline_succeeds against a running Wharf.

Environment: WHARF_URL, WHARF_TOKEN (root's token). Exits 0, or prints the mismatch and exits 1.
"""
import gitlab

from _wharf import commit, expect, gl, run


def main():
    project = gl.projects.create({"name": "mr-merge-interop", "visibility": "private"})
    commit(project, "master", "README.md", "hello\n", "Initial")
    bug = project.issues.create({"title": "crash on start"})
    typo = project.issues.create({"title": "typo"})

    # A merge request whose description and commit close two issues.
    commit(project, "fix-crash", "fix.txt", "fixed\n", f"Fix the crash\n\nFixes #{typo.iid}", start="master")
    commit(project, "master", "other.txt", "other\n", "Move master on")
    mr = project.mergerequests.create(
        {"source_branch": "fix-crash", "target_branch": "master", "title": "Fix the crash", "description": f"Closes #{bug.iid}"}
    )
    closing = sorted(i.iid for i in mr.closes_issues())
    expect(closing == sorted([bug.iid, typo.iid]), f"closes_issues: {closing}")

    # Cancelling an automatic merge that was never set answers GitLab's service error (no exception).
    answer = mr.cancel_merge_when_pipeline_succeeds()
    expect(answer.get("status") == "error", f"cancel answered {answer}")

    mr.merge(should_remove_source_branch=True)
    expect(mr.state == "merged", f"state after merge: {mr.state}")
    expect(mr.merge_commit_sha, "no merge commit sha")
    head = project.branches.get("master").commit["id"]
    expect(head == mr.merge_commit_sha, f"master {head} is not the merge commit {mr.merge_commit_sha}")
    merge_commit = project.commits.get(head)
    expect(len(merge_commit.parent_ids) == 2, f"merge commit parents: {merge_commit.parent_ids}")
    expect(merge_commit.message.startswith("Merge branch 'fix-crash' into 'master'"), f"message: {merge_commit.message!r}")
    names = [b.name for b in project.branches.list(all=True)]
    expect("fix-crash" not in names, f"source branch kept: {names}")
    for iid in (bug.iid, typo.iid):
        expect(project.issues.get(iid).state == "closed", f"issue #{iid} is still open")

    # Merging again is refused: python-gitlab raises its merge error with GitLab's 405.
    try:
        mr.merge()
        raise AssertionError("a merged merge request merged again")
    except gitlab.exceptions.GitlabMRClosedError as err:
        expect(err.response_code == 405, f"second merge answered {err.response_code}")

    # A conflict: 406.
    commit(project, "clash", "same.txt", "branch\n", "Branch side", start="master")
    commit(project, "master", "same.txt", "master\n", "Master side")
    clash = project.mergerequests.create({"source_branch": "clash", "target_branch": "master", "title": "Clash"})
    expect(project.mergerequests.get(clash.iid).merge_status == "cannot_be_merged", "conflict not seen")
    try:
        clash.merge()
        raise AssertionError("a conflicting merge request merged")
    except gitlab.exceptions.GitlabMRClosedError as err:
        expect(err.response_code == 406, f"conflicting merge answered {err.response_code}")

    # Fast-forward only.
    project.merge_method = "ff"
    project.save()
    commit(project, "ahead", "ahead.txt", "ahead\n", "Ahead", start="master")
    ahead = project.mergerequests.create({"source_branch": "ahead", "target_branch": "master", "title": "Ahead"})
    ahead.merge()
    expect(ahead.state == "merged" and ahead.merge_commit_sha is None, f"ff merge: {ahead.state} {ahead.merge_commit_sha}")
    expect(project.branches.get("master").commit["id"] == ahead.sha, "master did not fast-forward")
    print("ok merge request merge")


if __name__ == "__main__":
    run(main)
