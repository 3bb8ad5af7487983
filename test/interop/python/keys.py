#!/usr/bin/python3
"""python-gitlab 3.12's SSH key and deploy key managers against a running Wharf, used as people use them.

Keys are made by ssh-keygen. Environment: WHARF_URL, WHARF_TOKEN (root's token). Exits 0, or
prints the mismatch and exits 1.
"""
import os
import subprocess
import tempfile

import gitlab

from _wharf import connect, expect, gl, run

KEYS_DIR = tempfile.mkdtemp(prefix="wharf-py-keys-")


def new_key(kind, comment):
    """A fresh key pair of `kind`; its public key line."""
    path = os.path.join(KEYS_DIR, f"{kind}-{len(os.listdir(KEYS_DIR))}")
    bits = ["-b", "2048"] if kind == "rsa" else []
    subprocess.run(["ssh-keygen", "-q", "-t", kind, *bits, "-N", "", "-C", comment, "-f", path], check=True)
    with open(f"{path}.pub", encoding="utf-8") as f:
        return f.read().strip()


def main():
    # The signed-in user's keys: create, list, get, delete.
    gl.auth()
    ed = new_key("ed25519", "root@py")
    rsa = new_key("rsa", "root@py")
    first = gl.user.keys.create({"title": "laptop", "key": ed})
    gl.user.keys.create({"title": "desktop", "key": rsa})
    expect(first.key == ed and first.title == "laptop", f"created key: {first.attributes}")
    titles = sorted(k.title for k in gl.user.keys.list(all=True))
    expect(titles == ["desktop", "laptop"], f"user keys listed: {titles}")
    expect(gl.user.keys.get(first.id).key == ed, "user key fetched by id")
    try:
        gl.user.keys.create({"title": "again", "key": ed})
        raise AssertionError("a key in use was added again")
    except gitlab.exceptions.GitlabCreateError as err:
        expect(err.response_code == 400, f"duplicate key answered {err.response_code}")
        expect("has already been taken" in str(err.error_message), f"duplicate key message: {err.error_message}")
    gl.user.keys.delete(first.id)
    expect([k.title for k in gl.user.keys.list(all=True)] == ["desktop"], "after delete")

    # Another user's keys, as an admin; any key by id.
    user = gl.users.create({"email": "keyed@example.com", "username": "keyed", "name": "Keyed", "password": "secret-pass-1"})
    ecdsa = new_key("ecdsa", "keyed@py")
    created = user.keys.create({"title": "work", "key": ecdsa})
    expect([k.id for k in user.keys.list(all=True)] == [created.id], "user's keys listed by an admin")
    found = gl.keys.get(created.id)
    expect(found.user["username"] == "keyed" and found.key == ecdsa, f"key with its user: {found.attributes}")
    user.keys.delete(created.id)
    expect(user.keys.list(all=True) == [], "user's key deleted by an admin")

    # Deploy keys: create (read-only and can_push), list, get, update via save, enable, delete.
    project = gl.projects.create({"name": "deployed", "visibility": "private"})
    other = gl.projects.create({"name": "deployed-too", "visibility": "private"})
    ci = project.keys.create({"title": "ci", "key": new_key("ed25519", "ci@py")})
    writer = project.keys.create({"title": "writer", "key": new_key("ecdsa", "rw@py"), "can_push": True})
    expect(ci.can_push is False and writer.can_push is True, f"can_push: {ci.can_push}, {writer.can_push}")
    listed = {k.title: k.can_push for k in project.keys.list(all=True)}
    expect(listed == {"ci": False, "writer": True}, f"deploy keys listed: {listed}")
    fetched = project.keys.get(ci.id)
    fetched.title = "ci (renamed)"
    fetched.can_push = True
    fetched.save()
    again = project.keys.get(ci.id)
    expect(again.title == "ci (renamed)" and again.can_push is True, f"after save: {again.attributes}")
    project.keys.update(ci.id, {"can_push": False})
    expect(project.keys.get(ci.id).can_push is False, "after update")

    enabled = other.keys.enable(writer.id)
    expect(enabled["id"] == writer.id, f"enabled: {enabled}")
    expect([(k.id, k.can_push) for k in other.keys.list(all=True)] == [(writer.id, False)], "enabled read-only in the other project")
    all_keys = {k.id: k.title for k in gl.deploykeys.list(all=True)}
    expect(all_keys.get(ci.id) == "ci (renamed)" and all_keys.get(writer.id) == "writer", f"instance deploy keys: {all_keys}")

    project.keys.delete(writer.id)
    expect([k.id for k in other.keys.list(all=True)] == [writer.id], "still enabled in the other project")
    try:
        project.keys.get(writer.id)
        raise AssertionError("a removed deploy key was found")
    except gitlab.exceptions.GitlabGetError as err:
        expect(err.response_code == 404, f"removed key answered {err.response_code}")

    # A developer may not manage deploy keys.
    dev = gl.users.create({"email": "dev-keys@example.com", "username": "devkeys", "name": "Dev", "password": "secret-pass-2"})
    project.members.create({"user_id": dev.id, "access_level": gitlab.const.DEVELOPER_ACCESS})
    token = dev.impersonationtokens.create({"name": "t", "scopes": ["api"]}).token
    try:
        connect(token).projects.get(project.id, lazy=True).keys.list()
        raise AssertionError("a developer listed deploy keys")
    except gitlab.exceptions.GitlabListError as err:
        expect(err.response_code == 403, f"developer answered {err.response_code}")


if __name__ == "__main__":
    run(main)
