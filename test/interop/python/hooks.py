#!/usr/bin/python3
"""python-gitlab 3.12's project hook and system hook managers against a running Wharf: create,
list, get, update and delete project hooks (the token never read back), system hooks as root
(the test call of `GET /hooks/:id`), and the errors a non-admin and a missing hook get.

Environment: WHARF_URL, WHARF_TOKEN (root's token). Exits 0, or prints the mismatch and exits 1.
"""
import gitlab

from _wharf import connect, expect, gl, run


def main():
    project = gl.projects.create({"name": "hooked-interop"})
    hook = project.hooks.create({"url": "http://hooks.example.com/push", "push_events": True, "issues_events": True, "token": "s3cret"})
    expect(hook.url == "http://hooks.example.com/push", f"url: {hook.url}")
    expect(hook.issues_events is True and hook.push_events is True and hook.note_events is False, f"events: {hook.attributes}")
    expect("token" not in hook.attributes, f"token returned: {hook.attributes}")
    expect(hook.project_id == project.id, f"project_id: {hook.project_id}")

    listed = project.hooks.list()
    expect([h.id for h in listed] == [hook.id], f"list: {listed}")
    got = project.hooks.get(hook.id)
    expect(got.enable_ssl_verification is True and "token" not in got.attributes, f"get: {got.attributes}")

    got.note_events = True
    got.url = "http://hooks.example.com/changed"
    got.save()
    again = project.hooks.get(hook.id)
    expect(again.note_events is True and again.url == "http://hooks.example.com/changed", f"updated: {again.attributes}")

    try:
        project.hooks.create({"url": "not a url"})
        raise AssertionError("a bad URL was accepted")
    except gitlab.exceptions.GitlabCreateError as err:
        expect(err.response_code == 422, f"bad url: {err.response_code} {err.error_message}")

    again.delete()
    try:
        project.hooks.get(hook.id)
        raise AssertionError("a deleted hook was found")
    except gitlab.exceptions.GitlabGetError as err:
        expect(err.response_code == 404, f"deleted: {err.response_code}")

    system = gl.hooks.create({"url": "http://127.0.0.1:9/system", "token": "sys", "push_events": True})
    expect(system.push_events is True and "token" not in system.attributes, f"system: {system.attributes}")
    expect(any(h.id == system.id for h in gl.hooks.list()), "system hook not listed")
    # python-gitlab's `get` is 10.8's test call: it answers the test event's data.
    tested = gl.hooks.get(system.id)
    expect(tested.attributes.get("event_name") == "project_create", f"test: {tested.attributes}")

    user = gl.users.create({"email": "hooks-plain@example.com", "username": "hooks-plain", "name": "Plain", "password": "secret-password-1"})
    plain = connect(user.impersonationtokens.create({"name": "interop", "scopes": ["api"]}).token)
    try:
        plain.hooks.list()
        raise AssertionError("a non-admin listed system hooks")
    except gitlab.exceptions.GitlabListError as err:
        expect(err.response_code == 403, f"non-admin: {err.response_code}")

    gl.hooks.delete(system.id)
    expect(all(h.id != system.id for h in gl.hooks.list()), "system hook not deleted")
    user.delete()
    project.delete()


run(main)
