"""Paths and small wrappers around the project's own binaries, shared by the
comparison scripts and the integration tests."""

import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def build_dir():
    return os.path.abspath(os.environ.get("PSSSP_BUILD", os.path.join(ROOT, "build")))


def binary(name):
    """Path of a built tool: psssp-sim, psssp-topo."""
    sub = {"psssp-sim": "simulator", "psssp-topo": "topologies"}[name]
    return os.path.join(build_dir(), sub, name)


def plugin_dir():
    """Directory holding libpsssp.so (for LD_LIBRARY_PATH)."""
    return os.path.join(build_dir(), "opensm-plugin")


def run(args, check=True, **kwargs):
    """Runs a tool, capturing text output; raises with stderr on failure."""
    proc = subprocess.run([str(a) for a in args], capture_output=True, text=True, **kwargs)
    if check and proc.returncode != 0:
        raise RuntimeError("%s exited %d:\n%s" % (" ".join(map(str, args)), proc.returncode,
                                                  proc.stderr[-3000:]))
    return proc


def generate(family, path, *options):
    """Writes an ibsim net file with psssp-topo; returns the path."""
    run([binary("psssp-topo"), family] + [str(o) for o in options] + ["-o", path])
    return path


def psssp_conf(options=""):
    """opensm.conf lines that load the plugin and select its engine."""
    text = "event_plugin_name psssp\nrouting_engine psssp\n"
    if options:
        text += "event_plugin_options %s\n" % options
    return text


def plugin_env():
    return {"LD_LIBRARY_PATH": plugin_dir()}
