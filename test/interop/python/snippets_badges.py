"""These API families through python-gitlab's own managers, unchanged: project and personal
snippets (create, list, get, save, content, user_agent_detail, delete, public), notes and award
emoji on a project snippet, access requests of a project and a group (create, list, approve,
delete), project and group badges (create, list, get, save, render, delete) and Pages domains
(create, list, get, save, delete, and the admins' list; the runner starts the server with Pages on)."""
import gitlab

from _wharf import commit, connect, expect, gl, run


def snippets(project):
    s = project.snippets.create({"title": "py snip", "file_name": "a.py", "content": "print(1)\n", "visibility": "private"})
    expect(s.title == "py snip" and s.project_id == project.id, f"created {s.attributes}")
    expect([x.id for x in project.snippets.list(get_all=True)] == [s.id], "listed")
    got = project.snippets.get(s.id)
    expect(got.content() == b"print(1)\n", f"raw {got.content()!r}")
    got.title = "renamed"
    got.save()
    expect(project.snippets.get(s.id).title == "renamed", "saved")
    detail = got.user_agent_detail()
    expect("python-gitlab" in detail["user_agent"], f"user agent {detail}")
    note = got.notes.create({"body": "nice snippet"})
    expect(note.noteable_type == "Snippet", f"note {note.attributes}")
    award = got.awardemojis.create({"name": "tada"})  # not a vote: one may not vote on one's own
    expect(award.name == "tada", "award")
    got.delete()
    try:
        project.snippets.get(s.id)
        raise AssertionError("deleted snippet still found")
    except gitlab.exceptions.GitlabGetError as err:
        expect(err.response_code == 404, f"status {err.response_code}")

    mine = gl.snippets.create({"title": "personal", "file_name": "p.txt", "content": "hello", "visibility": "public"})
    expect(mine.raw_url.endswith(f"/snippets/{mine.id}/raw"), f"raw_url {mine.raw_url}")
    expect(mine.id in [x.id for x in gl.snippets.list(get_all=True)], "own list")
    expect(mine.id in [x.id for x in gl.snippets.public(get_all=True)], "public list")
    expect(gl.snippets.get(mine.id).content() == b"hello", "personal raw")
    mine.content = "changed"
    mine.save()
    expect(gl.snippets.get(mine.id).content() == b"changed", "personal save")
    mine.delete()


def access_requests(project, group):
    asker = gl.users.create({"email": "asker@example.com", "username": "py-asker", "name": "Py Asker", "password": "secret-password-1"})
    as_asker = connect(asker.impersonationtokens.create({"name": "interop", "scopes": ["api"]}).token)
    request = as_asker.projects.get(project.id, lazy=True).accessrequests.create({})
    expect(request.username == "py-asker" and request.requested_at, f"request {request.attributes}")
    pending = project.accessrequests.list(get_all=True)
    expect([r.username for r in pending] == ["py-asker"], "listed")
    pending[0].approve(access_level=gitlab.const.REPORTER_ACCESS)
    expect(project.members.get(asker.id).access_level == gitlab.const.REPORTER_ACCESS, "approved as reporter")

    as_asker.groups.get(group.id, lazy=True).accessrequests.create({})
    group_pending = group.accessrequests.list(get_all=True)
    expect([r.username for r in group_pending] == ["py-asker"], "group request listed")
    group_pending[0].delete()
    expect(group.accessrequests.list(get_all=True) == [], "denied")


def badges(project, group):
    b = project.badges.create({"link_url": "https://ci.example.com/%{project_path}", "image_url": "https://ci.example.com/%{default_branch}.svg"})
    expect(b.kind == "project", f"kind {b.kind}")
    expect(b.rendered_link_url == f"https://ci.example.com/{project.path_with_namespace}", f"rendered {b.rendered_link_url}")
    b.link_url = "https://other.example.com"
    b.save()
    expect(project.badges.get(b.id).link_url == "https://other.example.com", "badge saved")
    preview = project.badges.render("https://x.example.com/%{project_id}", "https://x.example.com/i.svg")
    expect(preview["rendered_link_url"] == f"https://x.example.com/{project.id}", f"render {preview}")
    try:
        project.badges.create({"link_url": "javascript:alert(1)", "image_url": "https://x.example.com"})
        raise AssertionError("javascript: badge accepted")
    except gitlab.exceptions.GitlabCreateError as err:
        expect(err.response_code == 400, f"status {err.response_code}")
    g = group.badges.create({"link_url": "https://g.example.com", "image_url": "https://g.example.com/i.svg"})
    expect(g.kind == "group", "group badge")
    expect(sorted(x.kind for x in project.badges.list(get_all=True)) == ["group", "project"], "project list has both")
    g.delete()
    b.delete()
    expect(project.badges.list(get_all=True) == [], "badges deleted")


def pages_domains(project):
    d = project.pagesdomains.create({"domain": "py.example.com"})
    expect(d.url == "http://py.example.com" and d.verified is False, f"domain {d.attributes}")
    expect([x.domain for x in project.pagesdomains.list(get_all=True)] == ["py.example.com"], "listed")
    got = project.pagesdomains.get("py.example.com")
    got.save()
    expect("py.example.com" in [x.domain for x in gl.pagesdomains.list(get_all=True)], "admins' list")
    got.delete()
    expect(project.pagesdomains.list(get_all=True) == [], "deleted")


def main():
    group = gl.groups.create({"name": "Py Fifteen", "path": "py-fifteen", "visibility": "public", "request_access_enabled": True})
    project = gl.projects.create({"name": "py-fifteen-project", "namespace_id": group.id, "visibility": "public", "request_access_enabled": True})
    commit(project, "master", "README.md", "hello", "first")
    snippets(project)
    access_requests(project, group)
    badges(project, group)
    pages_domains(project)


run(main)
