# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""scripts/install-deps.sh's two package sets: demo (make demo) within test
(make test), each package listed once, --dry-run printing a set without
touching apt, and the make targets asking for the right set."""

import os
import re
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "scripts", "install-deps.sh")
# What only the tests need: the browser test, the Debian packages, the
# sanitizer and fuzz builds, the format check and psssp-bench (MPI).
TEST_ONLY = ("chromium", "lintian", "debhelper", "fakeroot", "clang", "clang-format",
             "libclang-rt-14-dev", "python3-pytest", "libopenmpi-dev")
PACKAGE_RE = re.compile(r"^[a-z0-9][a-z0-9+.-]+$")


def dry_run(*args, path="/nonexistent"):
    """install-deps.sh --dry-run ARGS with no apt, dpkg or sudo on PATH: a dry
    run must not need them."""
    return subprocess.run(["/bin/bash", SCRIPT, "--dry-run", *args], capture_output=True,
                          text=True, env={"PATH": path}, timeout=30)


def packages(set_name):
    res = dry_run(set_name)
    assert res.returncode == 0, res.stderr
    assert res.stderr == ""
    return res.stdout.splitlines()


def listed():
    """Every package name written in the script's set arrays, in order."""
    with open(SCRIPT) as f:
        text = f.read()
    arrays = re.findall(r"^(\w+)=\(\n(.*?)^\)", text, re.S | re.M)
    assert [name for name, _ in arrays] == ["demo", "test_only"]
    return [p for _, body in arrays for p in body.split()]


@pytest.mark.parametrize("set_name", ["demo", "test"])
def test_dry_run_prints_one_package_a_line(set_name):
    names = packages(set_name)
    assert len(names) >= 10
    bad = [n for n in names if not PACKAGE_RE.match(n)]
    assert not bad, "not one package name a line: %r" % bad
    assert len(set(names)) == len(names), "listed twice: %r" % sorted(
        n for n in set(names) if names.count(n) > 1)


def test_demo_set_is_within_test_set():
    demo, test = packages("demo"), packages("test")
    assert set(demo) < set(test), "demo packages missing from test: %r" % sorted(
        set(demo) - set(test))
    assert test[:len(demo)] == demo


def test_each_package_listed_once_in_one_place():
    names = listed()
    assert len(names) == len(set(names)), "listed twice: %r" % sorted(
        n for n in set(names) if names.count(n) > 1)
    assert sorted(names) == sorted(packages("test"))


def test_demo_set_lacks_what_only_tests_need():
    demo, test = set(packages("demo")), set(packages("test"))
    assert not demo & set(TEST_ONLY), sorted(demo & set(TEST_ONLY))
    assert set(TEST_ONLY) <= test, sorted(set(TEST_ONLY) - test)
    # Building the tools and plugin and running compare-engines.
    assert {"g++", "cmake", "ninja-build", "libopensm-dev", "opensm", "ibsim-utils",
            "python3"} <= demo


def test_no_set_name_means_test_set():
    res = dry_run()
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines() == packages("test")


@pytest.mark.parametrize("args,message", [
    (["doc"], "install-deps: unknown set 'doc' (demo or test)"),
    (["demo", "test"], "usage: install-deps.sh [--dry-run] [demo|test]"),
])
def test_bad_arguments_exit_2_with_one_message(args, message):
    res = dry_run(*args)
    assert res.returncode == 2
    assert res.stdout == ""
    assert message in res.stderr.splitlines()


def make_plan(target, tmp_path):
    """The commands `make -n TARGET` would run against an empty build folder."""
    res = subprocess.run(["make", "-n", "-C", ROOT, target, "BUILD=%s" % (tmp_path / "b"),
                          "JOBS=1"], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    return res.stdout


def test_make_demo_installs_the_demo_set_and_builds_only_the_demo_tools(tmp_path):
    plan = make_plan("demo", tmp_path)
    assert "scripts/install-deps.sh demo" in plan
    assert "install-deps.sh test" not in plan
    builds = [line for line in plan.splitlines() if "cmake --build" in line]
    assert builds and all("--target demo_tools" in line for line in builds), builds


def test_make_test_installs_the_test_set(tmp_path):
    plan = make_plan("unit-test", tmp_path)
    assert "scripts/install-deps.sh test" in plan
    assert "install-deps.sh demo" not in plan


def test_ci_runs_exactly_make_test():
    with open(os.path.join(ROOT, ".ci", "run")) as f:
        commands = [l.strip() for l in f if l.strip() and not l.lstrip().startswith("#")]
    assert commands[-1] == "make test"
    assert not any("install-deps" in c or "demo" in c for c in commands)
