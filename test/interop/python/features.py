#!/usr/bin/python3
"""python-gitlab 3.12's feature flag manager against a running Wharf: a flag set on, to a
percentage of time, listed, and deleted. python-gitlab asks for `/features//<name>` (two
slashes), which GitLab's nginx merges: Wharf merges them too.

Environment: WHARF_URL, WHARF_TOKEN (root's token). Exits 0, or prints the mismatch and exits 1.
"""
from _wharf import expect, gl, run


def main():
    on = gl.features.set("interop_flag", True)
    expect(on.name == "interop_flag" and on.state == "on", f"set {on.attributes}")
    expect(on.gates == [{"key": "boolean", "value": True}], f"gates {on.gates}")

    some = gl.features.set("interop_share", 30)
    expect(some.state == "conditional", f"percentage {some.attributes}")
    expect({"key": "percentage_of_time", "value": 30} in some.gates, f"gates {some.gates}")

    names = [f.name for f in gl.features.list()]
    expect("interop_flag" in names and "interop_share" in names, f"list {names}")

    gl.features.delete("interop_flag")
    names = [f.name for f in gl.features.list()]
    expect("interop_flag" not in names, f"deleted: {names}")


run(main)
