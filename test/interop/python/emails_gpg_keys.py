#!/usr/bin/python3
"""python-gitlab 3.12's e-mail, GPG key and user activity managers against a running Wharf, used as people use them.

The GPG keys are fixed public keys (_gpg_keys.py). Environment: WHARF_URL, WHARF_TOKEN (root's
token). Exits 0, or prints the mismatch and exits 1.
"""
import datetime
import os
import subprocess
import tempfile
import urllib.parse

import gitlab

from _gpg_keys import KEYED_KEY, ROOT_KEY
from _wharf import URL, expect, gl, run


def refused(call, code, words):
    """`call` fails with `code` and a message holding `words`."""
    try:
        call()
    except gitlab.exceptions.GitlabError as err:
        expect(err.response_code == code, f"answered {err.response_code}: {err.error_message}")
        expect(words in str(err.error_message), f"message: {err.error_message}")
        return
    raise AssertionError(f"accepted what should answer {code}")


def main():
    gl.auth()

    # The signed-in user's e-mails: create, list, get, delete.
    first = gl.user.emails.create({"email": "Root.Work@Example.com"})
    expect(first.email == "root.work@example.com", f"created e-mail: {first.attributes}")
    gl.user.emails.create({"email": "root.home@example.com"})
    listed = [e.email for e in gl.user.emails.list(all=True)]
    expect(listed == ["root.work@example.com", "root.home@example.com"], f"e-mails listed: {listed}")
    expect(gl.user.emails.get(first.id).email == "root.work@example.com", "e-mail fetched by id")
    refused(lambda: gl.user.emails.create({"email": "root.work@example.com"}), 400, "has already been taken")
    refused(lambda: gl.user.emails.create({"email": "not an address"}), 400, "is invalid")
    gl.user.emails.delete(first.id)
    expect([e.email for e in gl.user.emails.list(all=True)] == ["root.home@example.com"], "after delete")

    # Another user's e-mails, as an admin.
    user = gl.users.create({"email": "mailed@example.com", "username": "mailed", "name": "Mailed", "password": "secret-pass-1"})
    created = user.emails.create({"email": "mailed.second@example.com"})
    expect([e.email for e in user.emails.list(all=True)] == ["mailed.second@example.com"], "user's e-mails listed by an admin")
    refused(lambda: user.emails.create({"email": "root.home@example.com"}), 400, "has already been taken")
    user.emails.delete(created.id)
    expect(user.emails.list(all=True) == [], "user's e-mail deleted by an admin")

    # The signed-in user's GPG keys: create, list, get, delete.
    key = gl.user.gpgkeys.create({"key": ROOT_KEY})
    expect(key.key == ROOT_KEY.strip() and key.created_at, f"created GPG key: {key.attributes}")
    expect([k.id for k in gl.user.gpgkeys.list(all=True)] == [key.id], "GPG keys listed")
    expect(gl.user.gpgkeys.get(key.id).key == ROOT_KEY.strip(), "GPG key fetched by id")
    refused(lambda: gl.user.gpgkeys.create({"key": ROOT_KEY}), 400, "has already been taken")
    refused(lambda: gl.user.gpgkeys.create({"key": "not a key"}), 400, "A valid public GPG key begins with")
    gl.user.gpgkeys.delete(key.id)
    expect(gl.user.gpgkeys.list(all=True) == [], "after GPG key delete")

    # Another user's GPG keys, as an admin.
    theirs = user.gpgkeys.create({"key": KEYED_KEY})
    expect([k.id for k in user.gpgkeys.list(all=True)] == [theirs.id], "user's GPG keys listed by an admin")
    expect(user.gpgkeys.get(theirs.id).key == KEYED_KEY.strip(), "user's GPG key fetched by an admin")
    user.gpgkeys.delete(theirs.id)
    expect(user.gpgkeys.list(all=True) == [], "user's GPG key deleted by an admin")

    # User activities (admins): root clones a private project with git, and shows as active today.
    project = gl.projects.create({"name": "active", "visibility": "private", "initialize_with_readme": True})
    url = urllib.parse.urlsplit(URL)
    token = urllib.parse.quote(os.environ["WHARF_TOKEN"], safe="")
    remote = f"{url.scheme}://root:{token}@{url.netloc}/{project.path_with_namespace}.git"
    subprocess.run(["git", "clone", "-q", remote, os.path.join(tempfile.mkdtemp(prefix="wharf-py-active-"), "active")], check=True)
    today = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    activities = gl.user_activities.list(all=True, query_parameters={"from": "2000-01-01"})
    mine = [a.attributes for a in activities if a.username == "root"]
    expect(mine == [{"username": "root", "last_activity_on": today, "last_activity_at": today}], f"root's activity: {mine}")


if __name__ == "__main__":
    run(main)
