# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""The documentation agrees with the code: every file it names exists, every
plugin option of psssp(8) is in the example opensm.conf and the admin guide
with the same default, and compare-engines(1) names every CSV key."""

import glob
import os
import re

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOP_DIRS = ("bench", "core", "debian", "docs", "fuzz", "opensm-plugin", "scripts", "simulator",
            "testing", "tests", "tools", "topologies")
PATH_RE = re.compile(r"(?<![\w./$-])((?:%s)/[\w./*+-]*[\w*+-])" % "|".join(TOP_DIRS))


def doc_files():
    files = [os.path.join(ROOT, "README.md"), os.path.join(ROOT, "NEWS")]
    for pattern in ("docs/*.md", "docs/*.conf", "*/*.md", "*/*/*.md", "*/*.[1-8]"):
        files += glob.glob(os.path.join(ROOT, pattern))
    return sorted(f for f in set(files) if "/build" not in f and "/obj-" not in f)


def read(path):
    with open(path, errors="replace") as f:
        return (f.read().replace("\\-", "-").replace("\\&", "")  # roff escapes
                .replace("\\(+-", "±"))


@pytest.mark.parametrize("doc", doc_files(), ids=lambda p: os.path.relpath(p, ROOT))
def test_every_named_file_exists(doc):
    missing = []
    for name in PATH_RE.findall(read(doc)):
        name = name.rstrip(".")
        if not glob.glob(os.path.join(ROOT, name)):
            missing.append(name)
    assert not missing, "%s names files that do not exist: %s" % (
        os.path.relpath(doc, ROOT), ", ".join(sorted(set(missing))))


def man_options():
    """psssp(8)'s options and the default each states: {key: default or None}."""
    text = read(os.path.join(ROOT, "opensm-plugin", "psssp.8"))
    section = text[text.index(".SH OPTIONS"):]
    section = section[:section.index("\n.SH ", 1)]
    options = {}
    for block in section.split("\n.TP\n")[1:]:
        head, _, body = block.partition("\n")
        key = re.search(r"([a-z_]+)", head.split(None, 1)[1]).group(1)
        body = body.replace("\n", " ")
        found = (re.search(r"\(default (\w+)\)", body) or re.search(r"(\w+) \(the default\)", body)
                 or re.search(r"\.BR? (\w+) \(default\)", body))
        options[key] = found.group(1) if found else None
    return options


def test_man_page_parses_into_options():
    options = man_options()
    for key in ("minimal", "threads", "effort", "vls", "incremental", "rebalance",
                "full_reroute_above", "lid_matrices", "guid_mode"):
        assert key in options, sorted(options)
    assert options["threads"] == "0" and options["full_reroute_above"] == "5"


def conf_options():
    """docs/opensm-psssp.conf's option comments: {key: the text describing it}."""
    options, key = {}, None
    for line in read(os.path.join(ROOT, "docs", "opensm-psssp.conf")).splitlines():
        m = re.match(r"#   ([a-z_]+)", line)
        if m:
            key = m.group(1)
            options[key] = line
        elif key and re.match(r"#\s{20,}", line):
            options[key] += " " + line.strip("# ")
        else:
            key = None
    return options


def stated_default(text):
    found = re.search(r"\(default (\w+)", text) or re.search(r"(\w+) \(default\)", text)
    return found.group(1) if found else None


def test_example_conf_lists_every_option_with_its_default():
    conf = conf_options()
    for key, default in man_options().items():
        if key in ("psssp", "nonminimal"):
            continue  # the prefix rule; nonminimal shares minimal's line
        assert key in conf, "docs/opensm-psssp.conf does not list %s" % key
        said = stated_default(conf[key])
        if default and said:
            assert said == default, (key, said, default)


def test_admin_guide_lists_every_option_with_its_default():
    text = read(os.path.join(ROOT, "docs", "admin-guide.md"))
    rows = {}
    for row in re.findall(r"^\| `([a-z_]+)[^`]*` \| ([^|]+) \|", text, re.M):
        rows[row[0]] = row[1].strip()
    for key, default in man_options().items():
        if key == "psssp":
            continue
        assert key in rows, "docs/admin-guide.md's option table lacks %s" % key
        if default and default not in ("on", "off"):
            assert rows[key] == default, (key, rows[key], default)


def test_compare_engines_page_names_every_csv_key():
    import compare_report as module  # compare-engines' table columns
    page = read(os.path.join(ROOT, "scripts", "compare-engines.1")).replace("\n", " ")
    keys = page[page.index("has the same columns under the keys"):]
    for key, header in module.COLUMNS:
        assert re.search(r"\b%s\b" % key, keys), "compare-engines(1) lacks the CSV key " + key
        assert header in page, "compare-engines(1) lacks the column " + header


def test_demo_fabric_is_the_documented_one():
    makefile = read(os.path.join(ROOT, "Makefile"))
    family = re.search(r"^DEMO_TOPOLOGY \?= (\S+)", makefile, re.M).group(1)
    guide = read(os.path.join(ROOT, "docs", "researcher-guide.md"))
    sentence = re.search(r"`make demo` runs it on ([^.]+)\.", guide.replace("\n", " ")).group(1)
    assert family.replace("-", " ") in sentence, (family, sentence)
