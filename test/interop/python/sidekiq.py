#!/usr/bin/python3
"""python-gitlab 3.12's sidekiq manager against a running Wharf: the four job-metrics calls as
root, and the errors a non-admin gets.

Environment: WHARF_URL, WHARF_TOKEN (root's token). Exits 0, or prints the mismatch and exits 1.
"""
import gitlab

from _wharf import URL, connect, expect, gl, run

PROCESS_KEYS = {"hostname", "pid", "tag", "started_at", "queues", "labels", "concurrency", "busy"}


def main():
    queues = gl.sidekiq.queue_metrics()["queues"]
    for name in ("default", "cronjob", "git_garbage_collect", "project_export", "repository_import", "pipeline_processing"):
        expect(name in queues, f"queue {name} missing: {sorted(queues)}")
    expect(all(set(q) == {"backlog", "latency"} and isinstance(q["backlog"], int) and isinstance(q["latency"], int) for q in queues.values()), f"queues: {queues}")

    processes = gl.sidekiq.process_metrics()["processes"]
    expect(len(processes) >= 1, f"no process: {processes}")
    expect(all(set(p) == PROCESS_KEYS for p in processes), f"process keys: {processes}")
    expect(all(isinstance(p["pid"], int) and isinstance(p["queues"], list) for p in processes), f"processes: {processes}")

    jobs = gl.sidekiq.job_stats()["jobs"]
    expect(set(jobs) == {"processed", "failed", "enqueued"} and all(isinstance(v, int) for v in jobs.values()), f"job stats: {jobs}")

    compound = gl.sidekiq.compound_metrics()
    expect(set(compound) == {"queues", "processes", "jobs"}, f"compound: {sorted(compound)}")
    expect(set(compound["queues"]) == set(queues), "compound queues differ")

    # A project's housekeeping, as python-gitlab starts it.
    project = gl.projects.create({"name": "kept-tidy"})
    project.housekeeping()
    project.delete()

    # A user who is not an administrator.
    user = gl.users.create({"email": "not-admin@example.com", "username": "not-admin", "name": "Not Admin", "password": "secret-password-1"})
    token = user.impersonationtokens.create({"name": "interop", "scopes": ["api"]})
    plain = connect(token.token)
    for call in (plain.sidekiq.queue_metrics, plain.sidekiq.process_metrics, plain.sidekiq.job_stats, plain.sidekiq.compound_metrics):
        try:
            call()
            raise AssertionError(f"{call.__name__} answered a non-admin")
        except gitlab.exceptions.GitlabGetError as err:
            expect(err.response_code == 403, f"{call.__name__}: {err.response_code} {err.error_message}")
    anonymous = gitlab.Gitlab(URL, timeout=30)
    try:
        anonymous.sidekiq.job_stats()
        raise AssertionError("job_stats answered the signed-out")
    except gitlab.exceptions.GitlabAuthenticationError as err:
        expect(err.response_code == 401, f"signed out: {err.response_code}")
    user.delete()


run(main)
