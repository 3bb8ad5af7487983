"""Application settings through python-gitlab's settings manager, unchanged: get(), attribute
changes and save(), update() with a server-side refusal, and a non-admin refused.
Restores every setting it changes (the other scripts share the server)."""
import gitlab

from _wharf import connect, expect, gl, run


def main():
    settings = gl.settings.get()
    expect(settings.default_projects_limit == 100000, f"default_projects_limit {settings.default_projects_limit}")
    expect(settings.default_project_visibility == "private", "default visibility")
    expect(settings.restricted_visibility_levels == [], "no restricted levels")
    expect(settings.signin_enabled is True and settings.password_authentication_enabled_for_web is True, "legacy names mirror")

    settings.default_projects_limit = 42
    settings.restricted_visibility_levels = ["public"]
    settings.signup_enabled = False
    settings.default_group_visibility = "internal"
    settings.save()
    expect(settings.default_projects_limit == 42, "save() takes the answer")

    again = gl.settings.get()
    expect(again.default_projects_limit == 42, "stored")
    expect(again.restricted_visibility_levels == ["public"], f"levels {again.restricted_visibility_levels}")
    expect(again.signup_enabled is False, "signup")
    expect(again.default_group_visibility == "internal", "group visibility")

    try:
        gl.settings.update(new_data={"koding_enabled": True})
        raise AssertionError("koding_enabled without koding_url was accepted")
    except gitlab.exceptions.GitlabUpdateError as err:
        expect(err.response_code == 400, f"status {err.response_code}")
        expect("koding_url is missing" in str(err.error_message), f"message {err.error_message}")

    try:
        gl.settings.update(new_data={"max_attachment_size": 0})
        raise AssertionError("max_attachment_size 0 was accepted")
    except gitlab.exceptions.GitlabUpdateError as err:
        expect(err.response_code == 400, f"status {err.response_code}")
        expect("must be greater than 0" in str(err.error_message), f"message {err.error_message}")

    user = gl.users.create({"username": "settings-reader", "name": "Reader", "email": "settings-reader@example.com", "password": "long-enough-pw"})
    token = user.impersonationtokens.create({"name": "t", "scopes": ["api"]}).token
    try:
        connect(token).settings.get()
        raise AssertionError("a non-admin read the settings")
    except gitlab.exceptions.GitlabGetError as err:
        expect(err.response_code == 403, f"status {err.response_code}")

    gl.settings.update(new_data={
        "default_projects_limit": 100000,
        "restricted_visibility_levels": [],
        "signup_enabled": True,
        "default_group_visibility": "private",
    })
    restored = gl.settings.get()
    expect(restored.default_projects_limit == 100000 and restored.restricted_visibility_levels == [], "restored")


run(main)
