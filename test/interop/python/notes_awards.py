#!/usr/bin/python3
"""python-gitlab 3.12's issue notes, award emoji (issues and notes), subscriptions and time
tracking against a running Wharf, used as people use them.

Environment: WHARF_URL, WHARF_TOKEN (root's token). Exits 0, or prints the mismatch and exits 1.
"""
import gitlab

from _wharf import expect, gl, run


def main():
    gl.auth()
    me = gl.user
    project = gl.projects.create({"name": "notes-awards", "visibility": "private"})
    issue = project.issues.create({"title": "Talk about it", "description": "Let's discuss"})

    # Notes: create, list, get, edit via save, delete.
    first = issue.notes.create({"body": "first comment"})
    issue.notes.create({"body": "second comment"})
    bodies = [n.body for n in issue.notes.list(all=True)]
    expect(bodies == ["second comment", "first comment"], f"notes listed (newest first): {bodies}")
    ascending = [n.body for n in issue.notes.list(all=True, sort="asc")]
    expect(ascending == ["first comment", "second comment"], f"notes ascending: {ascending}")
    got = issue.notes.get(first.id)
    expect(got.author["username"] == me.username and got.noteable_iid == issue.iid, f"note: {got.attributes}")
    got.body = "first comment, edited"
    got.save()
    expect(issue.notes.get(first.id).body == "first comment, edited", "note edit not saved")
    expect(project.issues.get(issue.iid).user_notes_count == 2, "user_notes_count after two notes")
    issue.notes.delete(first.id)
    expect([n.body for n in issue.notes.list(all=True)] == ["second comment"], "note not deleted")
    try:
        issue.notes.get(first.id)
        raise AssertionError("a deleted note was found")
    except gitlab.exceptions.GitlabGetError as err:
        expect(err.response_code == 404, f"deleted note answered {err.response_code}")

    # Award emoji on the issue and on a note.
    heart = issue.awardemojis.create({"name": "heart"})
    expect(heart.name == "heart" and heart.user["username"] == me.username, f"award: {heart.attributes}")
    names = [a.name for a in issue.awardemojis.list(all=True)]
    expect(names == ["heart"], f"awards listed: {names}")
    try:
        issue.awardemojis.create({"name": "heart"})
        raise AssertionError("a duplicate award was created")
    except gitlab.exceptions.GitlabCreateError as err:
        expect(err.response_code == 404, f"duplicate award answered {err.response_code}")
    issue.awardemojis.delete(heart.id)
    expect(list(issue.awardemojis.list(all=True)) == [], "award not deleted")
    note = issue.notes.list(all=True)[0]
    tada = note.awardemojis.create({"name": "tada"})
    expect(tada.awardable_type == "Note" and tada.awardable_id == note.id, f"note award: {tada.attributes}")
    expect([a.name for a in note.awardemojis.list(all=True)] == ["tada"], "note awards listed")
    note.awardemojis.delete(tada.id)

    # Subscriptions: the author takes part; unsubscribe, then subscribe again.
    issue = project.issues.get(issue.iid)
    expect(issue.subscribed is True, "the author is subscribed")
    try:
        issue.subscribe()
        raise AssertionError("subscribing twice did not answer 304")
    except gitlab.exceptions.GitlabSubscribeError as err:
        expect(err.response_code == 304, f"second subscribe answered {err.response_code}")
    issue.unsubscribe()
    expect(issue.subscribed is False, "unsubscribe did not update the issue")
    issue.subscribe()
    expect(issue.subscribed is True, "subscribe did not update the issue")

    # Time tracking.
    stats = issue.time_estimate("3h30m")
    expect(stats["time_estimate"] == 12600 and stats["human_time_estimate"] == "3h 30m", f"estimate: {stats}")
    stats = issue.add_spent_time("1h")
    expect(stats["total_time_spent"] == 3600 and stats["human_total_time_spent"] == "1h", f"spent: {stats}")
    stats = issue.add_spent_time("-30m")
    expect(stats["total_time_spent"] == 1800, f"subtracted: {stats}")
    try:
        issue.time_estimate("soon")
        raise AssertionError("a bad duration was accepted")
    except gitlab.exceptions.GitlabTimeTrackingError as err:
        expect(err.response_code == 400, f"bad duration answered {err.response_code}")
    fresh = project.issues.get(issue.iid)
    expect(fresh.time_stats()["total_time_spent"] == 1800, f"issue time_stats: {fresh.time_stats()}")
    issue.reset_spent_time()
    issue.reset_time_estimate()
    stats = gl.http_get(f"/projects/{project.id}/issues/{issue.iid}/time_stats")  # the server, not the cached attribute
    expect(stats == {"time_estimate": 0, "total_time_spent": 0, "human_time_estimate": None, "human_total_time_spent": None}, f"after resets: {stats}")
    system = [n.body for n in issue.notes.list(all=True, sort="asc") if n.system]
    expect(system[0] == "changed time estimate to 3h 30m" and system[-1] == "removed time estimate", f"system notes: {system}")

    print("ok notes, award emoji, subscriptions and time tracking")


if __name__ == "__main__":
    run(main)
