"""CI through python-gitlab's managers, unchanged: group.variables and project.variables
(create, list, get, save, delete), project.pipelines (list, get, create, retry, cancel),
pipeline.jobs.list, project.jobs.get with trace(), project.deployments (list, get),
project.environments.list, and an external CI's commit.statuses (create, list) with the commit's
last_pipeline. Run by test/interop/python-gitlab-ci.test.ts against a server with
the built-in shell runner (WHARF_RUNNER=shell) and its background jobs on."""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))
from _wharf import commit, expect, gl, run  # noqa: E402

CI = """stages: [build, deploy]
build:
  stage: build
  script:
    - echo "group=$GROUP_VAR project=$PROJECT_VAR"
    - test "$FLAKY" = ok
deploy:
  stage: deploy
  script: echo deploying
  environment:
    name: production
    url: https://prod.example.com
slow:
  stage: build
  script: sleep 60
  only: [slow]
"""


def wait(obj, attr, done, seconds=60):
    """Refreshes `obj` until its `attr` is one of `done`; its value."""
    deadline = time.time() + seconds
    while getattr(obj, attr) not in done:
        expect(time.time() < deadline, f"{attr} stayed {getattr(obj, attr)}")
        time.sleep(0.2)
        obj.refresh()
    return getattr(obj, attr)


def first_pipeline(project, ref, seconds=30):
    """The newest pipeline of `ref` (created by a push in the background)."""
    deadline = time.time() + seconds
    while True:
        pipelines = project.pipelines.list(ref=ref, all=True)
        if pipelines:
            return project.pipelines.get(pipelines[0].id)
        expect(time.time() < deadline, f"no pipeline for {ref}")
        time.sleep(0.2)


def variables(group, project):
    group.variables.create({"key": "GROUP_VAR", "value": "from-group"})
    scratch = group.variables.create({"key": "SCRATCH", "value": "x", "protected": True})
    expect(scratch.protected is True, f"protected {scratch.attributes}")
    expect([v.key for v in group.variables.list(all=True)] == ["GROUP_VAR", "SCRATCH"], "group list")
    scratch = group.variables.get("SCRATCH")
    scratch.value = "y"
    scratch.protected = False
    scratch.save()
    again = group.variables.get("SCRATCH")
    expect((again.value, again.protected) == ("y", False), f"saved {again.attributes}")
    again.delete()
    expect([v.key for v in group.variables.list(all=True)] == ["GROUP_VAR"], "deleted")

    project.variables.create({"key": "PROJECT_VAR", "value": "from-project"})
    project.variables.create({"key": "FLAKY", "value": "no"})
    expect({v.key: v.value for v in project.variables.list(all=True)} == {"PROJECT_VAR": "from-project", "FLAKY": "no"}, "project list")
    try:
        project.variables.create({"key": "FLAKY", "value": "again"})
        expect(False, "a duplicate key was accepted")
    except gitlab_errors().GitlabCreateError as err:
        expect(err.response_code == 400 and "(FLAKY) has already been taken" in str(err.error_message), f"duplicate {err}")
    try:
        project.variables.get("MISSING")
        expect(False, "a missing variable was found")
    except gitlab_errors().GitlabGetError as err:
        expect(err.response_code == 404 and "404 Variable Not Found" in str(err.error_message), f"missing {err}")


def gitlab_errors():
    import gitlab.exceptions

    return gitlab.exceptions


def pipelines(project):
    commit(project, "master", ".gitlab-ci.yml", CI, "add CI")
    pipeline = first_pipeline(project, "master")
    expect(wait(pipeline, "status", ("success", "failed")) == "failed", "FLAKY=no fails the build")
    jobs = {j.name: j for j in pipeline.jobs.list(all=True)}
    expect(sorted(jobs) == ["build", "deploy"], f"jobs {sorted(jobs)}")
    expect((jobs["build"].status, jobs["deploy"].status) == ("failed", "skipped"), "statuses")

    flaky = project.variables.get("FLAKY")
    flaky.value = "ok"
    flaky.save()
    pipeline.retry()
    pipeline.refresh()
    expect(pipeline.status in ("pending", "running"), f"retried {pipeline.status}")
    expect(wait(pipeline, "status", ("success", "failed")) == "success", "the retry succeeds")
    build = max((j for j in pipeline.jobs.list(all=True) if j.name == "build"), key=lambda j: j.id)
    job = project.jobs.get(build.id)
    expect(job.status == "success" and job.pipeline["id"] == pipeline.id, f"job {job.attributes}")
    trace = job.trace()
    expect(b"group=from-group project=from-project" in trace, f"trace {trace!r}")

    # A pipeline created through the API, canceled while its job sleeps, then retried and canceled again.
    project.branches.create({"branch": "slow", "ref": "master"})
    pushed = first_pipeline(project, "slow")
    created = project.pipelines.create({"ref": "slow"})
    expect(created.ref == "slow" and created.id != pushed.id, f"created {created.attributes}")
    for p in (pushed, created):
        wait(p, "status", ("running", "pending"))
        p.cancel()
        expect(wait(p, "status", ("canceled",)) == "canceled", "canceled")
    created.retry()
    created.refresh()
    expect(created.status in ("pending", "running"), f"retried {created.status}")
    created.cancel()
    wait(created, "status", ("canceled",))
    listed = [p.id for p in project.pipelines.list(all=True)]
    expect(set(listed) >= {pipeline.id, pushed.id, created.id}, f"listed {listed}")
    return pipeline


def deployments(project, pipeline):
    listed = project.deployments.list(all=True)
    expect(len(listed) == 1, f"deployments {[d.attributes for d in listed]}")
    deployment = project.deployments.get(listed[0].id)
    expect(deployment.iid == 1 and deployment.ref == "master" and deployment.sha == pipeline.sha, f"deployment {deployment.attributes}")
    expect(deployment.environment["name"] == "production", "environment")
    expect(deployment.deployable["name"] == "deploy" and deployment.deployable["status"] == "success", "deployable")
    expect(deployment.user["username"] == "root", "user")
    environments = project.environments.list(all=True)
    expect([(e.name, e.external_url) for e in environments] == [("production", "https://prod.example.com")], "environments")


def statuses(project, pipeline):
    """An external CI posts to the pipeline's commit; its status counts in the pipeline's."""
    sha = pipeline.sha
    head = project.commits.get(sha)
    posted = head.statuses.create({"state": "running", "name": "external", "target_url": "https://ci.example.com/1"})
    expect((posted.status, posted.sha, posted.ref) == ("running", sha, "master"), f"posted {posted.attributes}")
    expect(wait(pipeline, "status", ("running",), seconds=5) == "running", "the pipeline runs again")
    done = head.statuses.create({"state": "success", "context": "external", "coverage": 90.5})
    expect((done.id, done.status, done.coverage) == (posted.id, "success", 90.5), f"done {done.attributes}")
    expect(wait(pipeline, "status", ("success",), seconds=5) == "success", "the pipeline succeeds again")
    names = sorted(st.name for st in head.statuses.list(all=True))
    expect("external" in names and "deploy" in names, f"statuses {names}")
    try:
        head.statuses.create({"state": "running", "name": "external", "ref": "master"})
        head.statuses.create({"state": "running", "name": "external", "ref": "master"})
        expect(False, "running twice was accepted")
    except gitlab_errors().GitlabCreateError as err:
        expect(err.response_code == 400 and "Cannot transition status via :run from :running" in str(err.error_message), f"twice {err}")
    newest = max(p.id for p in project.pipelines.list(all=True) if p.sha == sha)
    again = project.commits.get(sha)
    expect(again.last_pipeline["id"] == newest and again.status == again.last_pipeline["status"], f"commit {again.attributes}")


def main():
    group = gl.groups.create({"name": "py-ci", "path": "py-ci"})
    project = gl.projects.create({"name": "py-ci-project", "namespace_id": group.id})
    variables(group, project)
    pipeline = pipelines(project)
    deployments(project, pipeline)
    statuses(project, pipeline)


run(main)
