#!/usr/bin/python3
"""python-gitlab 3.12's notification settings managers against a running Wharf: the global
setting read and saved with a custom level and events, and a project's and a group's.

Environment: WHARF_URL, WHARF_TOKEN (root's token). Exits 0, or prints the mismatch and exits 1.
"""
from _wharf import expect, gl, run


def main():
    settings = gl.notificationsettings.get()
    expect(settings.level in ("participating", "watch", "custom", "global", "mention", "disabled"), f"global {settings.attributes}")
    settings.level = "custom"
    settings.new_issue = True
    settings.save()
    again = gl.notificationsettings.get()
    expect(again.level == "custom" and again.events["new_issue"] is True, f"saved {again.attributes}")

    project = gl.projects.create({"name": "notification-settings-project"})
    ps = project.notificationsettings.get()
    expect(ps.level == "global", f"project default {ps.attributes}")
    ps.level = "watch"
    ps.save()
    expect(project.notificationsettings.get().level == "watch", "project level saved")

    group = gl.groups.create({"name": "Notification Team", "path": "notification-team"})
    gs = group.notificationsettings.get()
    gs.level = "disabled"
    gs.save()
    expect(group.notificationsettings.get().level == "disabled", "group level saved")


run(main)
