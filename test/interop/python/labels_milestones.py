#!/usr/bin/python3
"""python-gitlab 3.12's label, milestone and issue managers against a running Wharf, used as people use them.

Environment: WHARF_URL, WHARF_TOKEN (root's token). Exits 0, or prints the mismatch and exits 1.
"""
import gitlab

from _wharf import expect, gl, run


def main():
    project = gl.projects.create({"name": "tracker", "visibility": "private"})

    # Labels: create, list, get, save, subscribe, delete.
    bug = project.labels.create({"name": "bug", "color": "#d9534f", "description": "broken"})
    project.labels.create({"name": "feature", "color": "green"})
    names = sorted(label.name for label in project.labels.list(all=True))
    expect(names == ["bug", "feature"], f"labels listed: {names}")
    fetched = project.labels.get(bug.id)
    expect(fetched.color.lower() == "#d9534f", f"label color: {fetched.color}")
    fetched.new_name = "defect"
    fetched.description = "still broken"
    fetched.save()
    names = sorted(label.name for label in project.labels.list(all=True))
    expect(names == ["defect", "feature"], f"after rename: {names}")
    try:
        project.labels.create({"name": "feature", "color": "#000000"})
        raise AssertionError("a duplicate label was created")
    except gitlab.exceptions.GitlabCreateError as err:
        expect(err.response_code == 409, f"duplicate label answered {err.response_code}")
    project.labels.get("feature").delete()
    names = [label.name for label in project.labels.list(all=True)]
    expect(names == ["defect"], f"after delete: {names}")

    # Milestones: create, list with filters, get, close via save, delete.
    v1 = project.milestones.create({"title": "v1.0", "due_date": "2030-01-31", "description": "first"})
    project.milestones.create({"title": "v2.0"})
    expect(v1.iid == 1 and v1.state == "active", f"milestone: iid {v1.iid}, state {v1.state}")
    titles = sorted(m.title for m in project.milestones.list(all=True))
    expect(titles == ["v1.0", "v2.0"], f"milestones listed: {titles}")
    got = project.milestones.get(v1.id)
    got.state_event = "close"
    got.save()
    closed = [m.title for m in project.milestones.list(state="closed")]
    expect(closed == ["v1.0"], f"closed milestones: {closed}")
    by_iid = [m.title for m in project.milestones.list(iids=[2])]
    expect(by_iid == ["v2.0"], f"milestones by iid: {by_iid}")
    expect(list(got.issues()) == [], "a new milestone has no issues")
    got.delete()
    titles = [m.title for m in project.milestones.list(all=True)]
    expect(titles == ["v2.0"], f"after delete: {titles}")

    # Issues: create with labels and a milestone, filter, edit, close, delete.
    v2 = project.milestones.list(all=True)[0]
    first = project.issues.create({"title": "It crashes", "labels": "defect,urgent", "milestone_id": v2.id})
    second = project.issues.create({"title": "Add dark mode", "description": "please"})
    expect((first.iid, second.iid) == (1, 2), f"issue iids: {first.iid}, {second.iid}")
    expect(sorted(first.labels) == ["defect", "urgent"], f"issue labels: {first.labels}")
    expect(first.milestone["title"] == "v2.0", f"issue milestone: {first.milestone}")
    labelled = [i.iid for i in project.issues.list(labels=["defect"])]
    expect(labelled == [1], f"issues labelled defect: {labelled}")
    by_milestone = [i.iid for i in project.issues.list(milestone="v2.0")]
    expect(by_milestone == [1], f"issues of v2.0: {by_milestone}")
    issue = project.issues.get(2)
    issue.state_event = "close"
    issue.save()
    expect(project.issues.get(2).state == "closed", "the issue did not close")
    opened = [i.iid for i in project.issues.list(state="opened")]
    expect(opened == [1], f"open issues: {opened}")
    mine = [i.iid for i in gl.issues.list(scope="created-by-me", all=True)]
    expect(sorted(mine) == [1, 2], f"/issues created by me: {mine}")
    project.issues.delete(2)
    remaining = [i.iid for i in project.issues.list(all=True)]
    expect(remaining == [1], f"after delete: {remaining}")
    print("ok labels, milestones and issues")


if __name__ == "__main__":
    run(main)
