#!/usr/bin/python3
"""python-gitlab 3.12 with what was once silently dropped: datetime-shaped dates, avatars, identities.

Environment: WHARF_URL, WHARF_TOKEN (root's token). Exits 0, or prints the mismatch and exits 1.
"""
import base64
import os
import tempfile
import urllib.request

from _wharf import URL, expect, gl, run

# A 1x1 PNG.
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")


def main():
    project = gl.projects.create({"name": "dropped-dates"})

    # Dates as 10.8 read them: a datetime-shaped due date is its date.
    m = project.milestones.create({"title": "dt", "due_date": "2020-01-01T00:00:00Z", "start_date": "Dec 1 2019"})
    expect(m.due_date == "2020-01-01" and m.start_date == "2019-12-01", f"milestone dates: {m.due_date} {m.start_date}")
    issue = project.issues.create({"title": "dated", "due_date": "2020-01-02T10:00:00+02:00"})
    expect(project.issues.get(issue.iid).due_date == "2020-01-02", f"issue due_date: {issue.due_date}")
    # The scripts share one server: other scripts count root's issues, so this one goes.
    issue.delete()

    # Identities and an avatar on a new user (python-gitlab sends the file as multipart).
    with tempfile.NamedTemporaryFile(suffix=".png", delete=False) as f:
        f.write(PNG)
        png_path = f.name
    try:
        with open(png_path, "rb") as avatar:
            user = gl.users.create({
                "email": "dropped@example.com", "username": "dropped", "name": "Dropped", "password": "secret-password",
                "provider": "github", "extern_uid": "D-1", "avatar": avatar,
            })
    finally:
        os.unlink(png_path)
    expect(user.identities == [{"provider": "github", "extern_uid": "D-1"}], f"identities: {user.identities}")
    expect(user.avatar_url.startswith(URL + "/uploads/-/system/user/avatar/"), f"avatar_url: {user.avatar_url}")
    with urllib.request.urlopen(user.avatar_url) as res:
        expect(res.read() == PNG, "the avatar served is not the one uploaded")
    found = gl.users.list(extern_uid="d-1", provider="github")
    expect([u.username for u in found] == ["dropped"], f"users by identity: {[u.username for u in found]}")


run(main)
