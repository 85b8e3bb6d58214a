# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""A replay in ibsim runs every cable at its captured width and speed: the
fabric ibnetdiscover reads back from the emulated switches has the same
cables at the same rates as the file the replay started from."""

import json
import os

import pytest

from ibsim_session import IbsimFabric
from psssp_tools import binary, generate, replay_net, run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TESTDATA = os.path.join(ROOT, "core", "formats", "testdata")
PUBLIC_1 = os.path.join(TESTDATA, "public-1.topo")


def info(path, *args):
    return json.loads(run([binary("psssp-sim"), "info", path, "--json"] + list(args)).stdout)


def read_back(net, tmp_path):
    with IbsimFabric(net, tmp_path / "ibsim") as fabric:
        osm = fabric.run_opensm(["-R", "minhop"])
        assert osm.returncode == 0 and osm.subnet_up, osm.log[-2000:]
        topo = tmp_path / "back.topo"
        topo.write_text(fabric.ibnetdiscover())
    return str(topo)


def assert_same_rates(original, back):
    """Every cable of `back` is in `original` at the same rate, and no more."""
    want = info(original)
    got = info(back, "--rates", original)
    assert got["cables"]["by_rate"] == want["cables"]["by_rate"]
    moved = got["rates_from"]
    assert moved["matched"] == want["cables"]["total"], moved
    assert moved["changed"] == 0 and moved["unmatched"] == 0, moved


def test_capture_with_1x_and_4x_cables_replays_at_its_rates(tmp_path):
    # public-1.topo: two 1xSDR cables among 4xSDR ones, each stated 4x at
    # one end and 1x at the other (the reader takes the slower).
    assert info(PUBLIC_1)["cables"]["by_rate"] == {"1xSDR": 2, "4xSDR": 5}
    replay = replay_net(PUBLIC_1, str(tmp_path))
    assert replay.captured and replay.substituted == {} and replay.mixed_rates
    assert_same_rates(PUBLIC_1, read_back(replay.net, tmp_path))


def test_generated_fabric_with_mixed_widths_and_speeds(tmp_path):
    net = generate("kary-ntree", str(tmp_path / "mix.net"), "--k", 4, "--n", 2, "--rate",
                   "4xEDR", "--degrade", 0.25, "--degraded-rate", "1xDDR", "--seed", 5)
    rates = info(net)["cables"]["by_rate"]
    assert set(rates) == {"4xEDR", "1xDDR"} and rates["1xDDR"] == 8  # 25% of 16 + 16 host cables
    assert_same_rates(net, read_back(net, tmp_path))


def test_rates_ibsim_lacks_are_named_and_scored_as_captured(tmp_path):
    # NDR is beyond ibsim 0.10: the replay runs HDR and says so; --rates puts
    # the captured NDR back for scoring. 3x3 torus: 27 + 9 host cables.
    net = generate("torus", str(tmp_path / "ndr.net"), "--dims", "3x3", "--rate", "4xHDR")
    text = open(net).read()
    assert "e=4" in text
    hdr = read_back(net, tmp_path)
    capture = tmp_path / "ndr.topo"
    capture.write_text(open(hdr).read().replace("4xHDR", "4xNDR"))
    replay = replay_net(str(capture), str(tmp_path))
    assert replay.substituted == {"4xNDR as 4xHDR": 27}
    assert "27 cables 4xNDR as 4xHDR" in replay.describe()
    back = tmp_path / "ndr-back"
    back.mkdir()
    replayed = read_back(replay.net, back)
    assert info(replayed)["cables"]["by_rate"] == {"4xHDR": 27}
    assert info(replayed, "--rates", str(capture))["cables"]["by_rate"] == {"4xNDR": 27}
    # XDR (200 Gb/s a lane) likewise: read, named, replayed as HDR.
    xdr = tmp_path / "xdr.topo"
    xdr.write_text(open(hdr).read().replace("4xHDR", "4xXDR"))
    assert info(str(xdr))["cables"]["by_rate"] == {"4xXDR": 27}
    (tmp_path / "xdr-work").mkdir()
    assert replay_net(str(xdr), str(tmp_path / "xdr-work")).substituted == {"4xXDR as 4xHDR": 27}


@pytest.mark.parametrize("capture", ["public-2.topo", "public-3.topo", "public-4.topo"])
def test_every_public_capture_replays(tmp_path, capture):
    # public-3.topo: self-cabled switch ports, and a first CA cabled on port 2
    # only (ibsim puts the SM on the first record's first port).
    path = os.path.join(TESTDATA, capture)
    replay = replay_net(path, str(tmp_path))
    assert replay.captured
    assert_same_rates(path, read_back(replay.net, tmp_path))
