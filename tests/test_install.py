# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""`make install` stages under DESTDIR without touching the host: the layout
packagers expect, stripped binaries, and scripts that run from the staged
copy with the staged tools on the PATH."""

import os
import subprocess

from psssp_tools import build_dir, run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def stage(tmp_path):
    dest = tmp_path / "stage"
    env = dict(os.environ, DESTDIR=str(dest))
    run(["cmake", "--install", build_dir(), "--prefix", "/usr", "--strip"], env=env)
    return dest / "usr"


def test_staged_layout_is_complete_and_stripped(tmp_path):
    usr = stage(tmp_path)
    for path in ["bin/psssp-sim", "bin/psssp-topo", "bin/compare-engines", "bin/check-fabric",
                 "share/psssp/psssp_tools.py", "share/man/man8/psssp.8",
                 "share/man/man1/psssp-sim.1", "share/doc/psssp/examples/opensm-psssp.conf",
                 "share/doc/psssp/COPYING"]:
        assert (usr / path).exists(), path
    plugins = list(usr.glob("lib/**/libpsssp.so"))
    assert len(plugins) == 1, plugins
    for binary in [plugins[0], usr / "bin/psssp-sim"]:
        sections = run(["readelf", "-S", str(binary)]).stdout
        assert ".debug_info" not in sections, binary
    assert os.readlink(usr / "bin/compare-engines") == "../share/psssp/compare-engines"


def test_staged_script_pages_are_assembled(tmp_path):
    """compare-engines(1) and check-fabric(1) as cmake/psssp_man_page.cmake
    assembles them: their shared option paragraphs (scripts/man/) filled in."""
    usr = stage(tmp_path)
    for script in ("compare-engines", "check-fabric"):
        page = str(tmp_path / (script + ".1"))
        run(["cmake", "-DIN=%s/scripts/%s.1" % (ROOT, script), "-DOUT=" + page, "-P",
             os.path.join(ROOT, "cmake", "psssp_man_page.cmake")])
        staged = (usr / "share/man/man1" / (script + ".1")).read_text()
        assert staged == open(page).read(), script
        assert '.\\" include' not in staged and "node\\-name\\-map" in staged, script


def test_staged_scripts_use_the_staged_tools(tmp_path):
    usr = stage(tmp_path)
    env = {k: v for k, v in os.environ.items() if k != "PSSSP_BUILD"}
    env["PATH"] = "%s:%s" % (usr / "bin", env.get("PATH", ""))
    # Run from outside the source tree, so no build/ beside the scripts.
    out = subprocess.run([str(usr / "bin/check-fabric"), "--help"], capture_output=True,
                         text=True, env=env, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    code = ("import sys; sys.path.insert(0, %r); import psssp_tools; "
            "print(psssp_tools.binary('psssp-sim'))" % str(usr / "share/psssp"))
    where = subprocess.run(["python3", "-c", code], capture_output=True, text=True, env=env,
                           cwd=tmp_path)
    assert where.stdout.strip() == str(usr / "bin/psssp-sim"), where.stdout + where.stderr
