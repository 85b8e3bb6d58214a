# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Every man page in the repository renders without groff/man warnings,
psssp-sim(1) names every subcommand and option that `psssp-sim COMMAND --help`
prints, and compare-engines(1) and check-fabric(1) every option of their
script's --help. A page that includes shared paragraphs (scripts/man/) is
checked as installed: assembled by the build's own code
(cmake/psssp_man_page.cmake), and holding every paragraph it names.

psssp-sim is found as the scripts find it (psssp_tools.binary: $PSSSP_BUILD, else
build/, else PATH).
"""

import glob
import os
import re
import subprocess
import sys

import pytest

from psssp_tools import UsageError, binary

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SKIP_DIRS = {".git", "node_modules"}
ASSEMBLER = os.path.join(ROOT, "cmake", "psssp_man_page.cmake")
# As cmake/psssp_man_page.cmake reads them: a line naming a shared paragraph,
# and the comment lines (the licence) that open a paragraph's file.
INCLUDE_RE = re.compile(r'\.\\" include ([^\n]+)')
LEADING_COMMENTS_RE = re.compile(r'^(\.\\"[^\n]*\n)+')


def man_pages():
    pages = []
    for top, dirs, files in os.walk(ROOT):
        # Build trees (build, build-asan, ...) hold no sources.
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("build")
                         and not os.path.exists(os.path.join(top, d, "CMakeCache.txt")))
        pages += [os.path.join(top, f) for f in sorted(files) if re.search(r"\.[18]$", f)]
    return pages


def includes(page):
    """The shared paragraphs a page names, as paths."""
    with open(page) as f:
        names = INCLUDE_RE.findall(f.read())
    return [os.path.normpath(os.path.join(os.path.dirname(page), n)) for n in names]


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """installed(page): the page as the build installs it; one with shared
    paragraphs assembled by cmake/psssp_man_page.cmake, any other as it is."""
    out = tmp_path_factory.mktemp("man")

    def assemble(page):
        if not includes(page):
            return page
        target = str(out / os.path.basename(page))
        subprocess.run(["cmake", "-DIN=" + page, "-DOUT=" + target, "-P", ASSEMBLER],
                       check=True, capture_output=True)
        return target
    return assemble


def render(page):
    env = dict(os.environ, MANWIDTH="80", MAN_KEEP_FORMATTING="0", LC_ALL="C.UTF-8")
    env.pop("MANPAGER", None)
    env["PAGER"] = "cat"
    return subprocess.run(["man", "--warnings", "-l", page], capture_output=True, text=True,
                          env=env)


def plain(text):
    """Rendered text without overstrike and with typographic dashes as '-'."""
    text = re.sub(r".\x08", "", text)
    return text.replace("\u2010", "-").replace("\u2212", "-").replace("\u2011", "-")


PAGES = man_pages()


def test_man_pages_found():
    names = {os.path.relpath(p, ROOT) for p in PAGES}
    for expected in ("simulator/psssp-sim.1", "opensm-plugin/psssp.8", "topologies/psssp-topo.1",
                     "scripts/compare-engines.1", "scripts/check-fabric.1"):
        assert expected in names, sorted(names)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: os.path.relpath(p, ROOT))
def test_man_page_renders_without_warnings(page, installed):
    proc = render(installed(page))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == "", proc.stderr
    assert proc.stdout.strip(), "empty rendering"


def test_assembled_pages_hold_every_shared_paragraph(installed):
    shared = sorted(glob.glob(os.path.join(ROOT, "scripts", "man", "*.1in")))
    assert shared
    used = set()
    for page in PAGES:
        parts = includes(page)
        if not parts:
            continue
        with open(installed(page)) as f:
            text = f.read()
        assert not INCLUDE_RE.search(text), page
        for part in parts:
            with open(part) as f:
                body = LEADING_COMMENTS_RE.sub("", f.read())
            assert body.strip() and body in text, (page, part)
        used.update(parts)
    # Every paragraph is shared: no file in scripts/man that no page includes.
    assert used == set(shared), sorted(set(shared) - used)
    for script in ("compare-engines", "check-fabric"):
        assert set(includes(os.path.join(ROOT, "scripts", script + ".1"))) == set(shared)


def sim_help(*args):
    try:
        sim = binary("psssp-sim")
    except UsageError as e:
        pytest.skip(str(e))
    return subprocess.run([sim] + list(args), capture_output=True, text=True, check=True).stdout


def subcommands():
    usage = sim_help("--help")
    return re.findall(r"^  ([a-z]+) ", usage, re.M)


def test_psssp_sim_page_names_every_subcommand_and_option():
    text = plain(render(os.path.join(ROOT, "simulator", "psssp-sim.1")).stdout)
    commands = subcommands()
    assert set(commands) >= {"info", "check", "score", "route"}, commands
    missing = []
    for command in commands:
        # The subcommand has its own section (indented heading) in COMMANDS.
        if not re.search(r"^\s+%s\s*$" % re.escape(command), text, re.M):
            missing.append(command)
        # Every option the help names, in the usage lines or the option list.
        options = set(re.findall(r"(?<![\w-])(--?[a-z][a-z0-9-]*)", sim_help(command, "--help")))
        options -= {"-h", "--help"}
        assert options, command
        for option in sorted(options):
            if not re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(option), text):
                missing.append("%s %s" % (command, option))
    assert not missing, "not in psssp-sim.1: %s" % ", ".join(missing)


@pytest.mark.parametrize("script", ["compare-engines", "check-fabric"])
def test_script_pages_name_every_option(script, installed):
    text = plain(render(installed(os.path.join(ROOT, "scripts", script + ".1"))).stdout)
    usage = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", script), "--help"],
                           capture_output=True, text=True, check=True,
                           env=dict(os.environ, COLUMNS="1000")).stdout  # no wrapped options
    options = set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", usage)) - {"--help"}
    assert {"--version", "--runs", "--seed"} <= options, options
    missing = [o for o in sorted(options)
               if not re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(o), text)]
    assert not missing, "not in %s.1: %s" % (script, ", ".join(missing))
