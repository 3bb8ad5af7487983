"""The preamble the python-gitlab interop scripts share (not a script: the runner skips `_*.py`).

A connection as root (`gl`), `connect` for another user's token, `expect`, `commit` (one file
through the commits API), and `run`, which runs a script's main and exits 1 with the traceback
on any failure. Environment: WHARF_URL, WHARF_TOKEN (root's token).
"""
import os
import sys
import traceback

import gitlab

URL = os.environ["WHARF_URL"]


def connect(token):
    """A python-gitlab connection to the server with `token`; the timeout keeps a hung server from hanging the test."""
    return gitlab.Gitlab(URL, private_token=token, timeout=30)


gl = connect(os.environ["WHARF_TOKEN"])


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


def commit(project, branch, path, content, message, start=None):
    """One commit creating `path` on `branch` (started from `start` when given)."""
    data = {
        "branch": branch,
        "commit_message": message,
        "actions": [{"action": "create", "file_path": path, "content": content}],
    }
    if start:
        data["start_branch"] = start
    return project.commits.create(data)


def run(main):
    """Runs `main`; any failure is reported the same way (the traceback, with the server's answer if any) and exits 1."""
    try:
        main()
    except Exception:  # noqa: BLE001 - report anything as a failure
        traceback.print_exc()
        sys.exit(1)
