"""Project export and import through python-gitlab's managers, unchanged: project.exports
(create, get, refresh until finished, download()), gl.projects.import_project and
project.imports.get(). Run by test/interop/python-export.test.ts against a server that runs
its background jobs (the export and the import are jobs)."""
import io
import os
import sys
import tarfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))
from _wharf import commit, expect, gl, run  # noqa: E402


def wait(obj, attr, done, seconds=60):
    deadline = time.time() + seconds
    while getattr(obj, attr) not in done:
        expect(time.time() < deadline, f"{attr} stayed {getattr(obj, attr)}")
        time.sleep(0.2)
        obj.refresh()
    return getattr(obj, attr)


def main():
    project = gl.projects.create({"name": "py-exported"})
    commit(project, "master", "README.md", "# exported\n", "first")
    project.issues.create({"title": "carried over", "description": "by the archive"})
    project.labels.create({"name": "py-label", "color": "#336699"})

    project.exports.create({})
    export = project.exports.get()
    status = wait(export, "export_status", ("finished",))
    expect(status == "finished", status)
    expect("api_url" in export._links, f"links {export._links}")

    data = export.download()
    expect(isinstance(data, bytes) and len(data) > 0, "download() gives the archive")
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
        names = sorted(archive.getnames())
        expect(names == [".", "./VERSION", "./project.bundle", "./project.json"], f"entries {names}")
        expect(archive.extractfile("./VERSION").read() == b"0.2.3", "VERSION")

    answer = gl.projects.import_project(io.BytesIO(data), path="py-imported")
    expect(answer["import_status"] == "scheduled", f"answer {answer}")
    imported = gl.projects.get(answer["id"], lazy=True)
    status = imported.imports.get()
    wait(status, "import_status", ("finished", "failed"))
    expect(status.import_status == "finished", f"import {status.attributes}")
    copy = gl.projects.get(answer["id"])
    issues = copy.issues.list(all=True)
    expect([i.title for i in issues] == ["carried over"], f"issues {[i.title for i in issues]}")
    expect([l.name for l in copy.labels.list(all=True)] == ["py-label"], "labels")
    expect(copy.files.get("README.md", ref="master").decode() == b"# exported\n", "repository")


run(main)
