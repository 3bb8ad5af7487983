#!/usr/bin/python3
"""python-gitlab 3.12's events and todos managers against a running Wharf, used as people use them.

Environment: WHARF_URL, WHARF_TOKEN (root's token). Exits 0, or prints the mismatch and exits 1.
"""
import gitlab

from _wharf import connect, expect, gl, run


def main():
    gl.auth()
    root = gl.user
    project = gl.projects.create({"name": "activity-feed", "visibility": "private"})

    # A second user, acting through an impersonation token.
    pal = gl.users.create({"email": "todo-pal@example.com", "username": "todo-pal", "name": "Todo Pal", "password": "secret-password-1"})
    token = pal.impersonationtokens.create({"name": "interop", "scopes": ["api"]})
    as_pal = connect(token.token)
    project.members.create({"user_id": pal.id, "access_level": 30})

    # Pal opens an issue assigned to root, addressing root too: one to-do (assigned).
    pal_project = as_pal.projects.get(project.id)
    issue = pal_project.issues.create({"title": "Ping root", "description": "@root please review", "assignee_ids": [root.id]})

    # Events: the project's, root's own, pal's.
    actions = [(e.action_name, e.target_type) for e in project.events.list(sort="asc", all=True)]
    expect(actions == [("created", None), ("joined", None), ("opened", "Issue")], f"project events: {actions}")
    mine = [e.project_id for e in gl.events.list(action="created", all=True) if e.target_type is None]
    expect(project.id in mine, f"root's project creations: {mine}")
    expect(all(e.author_id == root.id for e in gl.events.list(all=True)), "gl.events lists only root's events")
    pal_events = [(e.action_name, e.target_title) for e in pal.events.list(all=True)]
    expect(pal_events == [("opened", "Ping root"), ("joined", None)], f"pal's events: {pal_events}")
    opened = project.events.list(action="created", target_type="issue")
    expect([e.target_iid for e in opened] == [issue.iid], f"filtered events: {[e.target_iid for e in opened]}")

    # Todos: list, mark one done, mark on request, mark all done.
    todos = gl.todos.list(project_id=project.id)
    expect([(t.action_name, t.target_type) for t in todos] == [("assigned", "Issue")], f"root's todos: {[t.action_name for t in todos]}")
    todo = todos[0]
    expect(todo.target["title"] == "Ping root" and todo.body == "Ping root", f"todo target: {todo.target.get('title')}, body {todo.body}")
    expect(todo.author["username"] == "todo-pal", f"todo author: {todo.author}")
    expect(todo.project["id"] == project.id, f"todo project: {todo.project}")
    todo.mark_as_done()
    expect(todo.state == "done", f"todo state after mark_as_done: {todo.state}")
    expect(gl.todos.list(project_id=project.id) == [], "a done todo is still pending")
    done = gl.todos.list(project_id=project.id, state="done")
    expect([t.id for t in done] == [todo.id], f"done todos: {[t.id for t in done]}")

    root_issue = project.issues.get(issue.iid)
    root_issue.todo()
    try:
        root_issue.todo()
        raise AssertionError("a second pending todo was created")
    except gitlab.exceptions.GitlabTodoError as err:
        expect(err.response_code == 304, f"second todo answered {err.response_code}")
    marked = gl.todos.list(project_id=project.id)
    expect([t.action_name for t in marked] == ["marked"], f"marked todos: {[t.action_name for t in marked]}")
    gl.todos.mark_all_as_done()
    expect(gl.todos.list() == [], "todos left after mark_all_as_done")
    print("ok events and todos")


if __name__ == "__main__":
    run(main)
