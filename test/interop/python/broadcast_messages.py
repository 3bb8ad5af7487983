#!/usr/bin/python3
"""python-gitlab 3.12's broadcast message manager against a running Wharf: messages created
(with the defaults and with given times and colours), listed newest first, read, changed with
save() and deleted; a bad colour refused, and a non-admin refused.

Environment: WHARF_URL, WHARF_TOKEN (root's token). Exits 0, or prints the mismatch and exits 1.
"""
import gitlab

from _wharf import connect, expect, gl, run

KEYS = {"id", "message", "starts_at", "ends_at", "color", "font", "active"}


def main():
    made = gl.broadcastmessages.create({"message": "Deploy in progress"})
    expect(set(made.attributes) == KEYS, f"keys {sorted(made.attributes)}")
    expect(made.color == "#E75E40" and made.font == "#FFFFFF" and made.active is True, f"defaults {made.attributes}")

    timed = gl.broadcastmessages.create({
        "message": "Maintenance",
        "starts_at": "2016-07-02T10:11:12Z",
        "ends_at": "2016-07-02T13:11:12Z",
        "color": "#000000",
        "font": "#cecece",
    })
    expect(timed.starts_at == "2016-07-02T10:11:12.000Z" and timed.ends_at == "2016-07-02T13:11:12.000Z", f"times {timed.attributes}")
    expect(timed.active is False, "a past message is not active")

    ids = [m.id for m in gl.broadcastmessages.list(get_all=True)]
    expect(ids[:2] == [timed.id, made.id], f"newest first: {ids}")

    again = gl.broadcastmessages.get(made.id)
    expect(again.message == "Deploy in progress", f"get {again.attributes}")
    again.message = "Deploy finished"
    again.color = "#00ff00"
    again.save()
    reread = gl.broadcastmessages.get(made.id)
    expect(reread.message == "Deploy finished" and reread.color == "#00ff00", f"saved {reread.attributes}")

    try:
        gl.broadcastmessages.create({"message": "Bad", "color": "green"})
        raise AssertionError("a bad colour was accepted")
    except gitlab.exceptions.GitlabCreateError as err:
        expect(err.response_code == 400, f"status {err.response_code}")
        expect("must be a valid color code" in str(err.error_message), f"message {err.error_message}")

    user = gl.users.create({"username": "broadcast-reader", "name": "Reader", "email": "broadcast-reader@example.com", "password": "long-enough-pw"})
    token = user.impersonationtokens.create({"name": "t", "scopes": ["api"]}).token
    try:
        connect(token).broadcastmessages.list()
        raise AssertionError("a non-admin listed the broadcast messages")
    except gitlab.exceptions.GitlabListError as err:
        expect(err.response_code == 403, f"status {err.response_code}")

    reread.delete()
    timed.delete()
    try:
        gl.broadcastmessages.get(made.id)
        raise AssertionError("a deleted message was found")
    except gitlab.exceptions.GitlabGetError as err:
        expect(err.response_code == 404, f"status {err.response_code}")


run(main)
