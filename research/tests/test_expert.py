"""Expert iteration offline (``netlab.expert``): the collection stores ``net``'s own
states with the search's shares on legal moves only, never a held-out rule set, and resumes at
its next shard; the distillation's targets are the shares sharpened as documented, its
training moves the network towards the labels, and its checkpoint exports as a ``net`` file."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="eights.train needs PyTorch (pip install '.[train]')")
pytest.importorskip("safetensors", reason="eights.train needs safetensors (pip install '.[train]')")

from eights import NUM_ACTIONS  # noqa: E402
from netlab.expert import CollectConfig, DistillConfig, _shards, collect, distill, load_shards  # noqa: E402
from netlab.imitation import digest, heldout_encodings  # noqa: E402

SHIPPED = str(Path(__file__).resolve().parents[2] / "src" / "bots" / "weights" / "net.safetensors")
TABLES = "2:heuristic:16:presets,3:heuristic:6"


@pytest.fixture(scope="module")
def labels_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("labels")
    cfg = CollectConfig(tables=TABLES, teacher="ismcts:24", explore=0.3, shard=300, seed=3, env_threads=1)
    collect(str(out), cfg, 600, 5.0, log=lambda _: None)
    return out


def test_collection_holds_legal_labels_of_choices(labels_dir):
    shards = _shards(str(labels_dir))
    assert len(shards) == 2
    with np.load(shards[0]) as z:
        mask = np.unpackbits(z["mask"], axis=1, count=NUM_ACTIONS).astype(bool)
        shares = z["shares"].astype(np.float32)
        move = z["move"].astype(np.int64)
        assert int(z["size"]) == len(move) == len(mask) == len(z["obs"]) >= 300
        # Only decisions with a choice are asked about.
        assert (mask.sum(1) > 1).all()
        # The search's shares are a distribution over legal moves; net's move is legal.
        assert np.allclose(shares.sum(1), 1.0, atol=1e-2)
        assert not (shares[~mask] > 0).any()
        assert mask[np.arange(len(move)), move].all()
        assert z["ridx"].max() < len(z["rules"])


def test_collection_never_stores_held_out_rules(labels_dir):
    held = {digest(e) for encs in heldout_encodings([2, 3]).values() for e in encs}
    for path in _shards(str(labels_dir)):
        with np.load(path) as z:
            assert not any(digest(r) in held for r in z["rules"])


def test_collection_resumes_at_its_next_shard(labels_dir, tmp_path):
    import shutil

    copy = tmp_path / "more"
    shutil.copytree(labels_dir, copy)
    cfg = CollectConfig(tables=TABLES, teacher="ismcts:24", shard=100, seed=3, env_threads=1)
    total = collect(str(copy), cfg, 700, 5.0, log=lambda _: None)
    names = [p.rsplit("/", 1)[-1] for p in _shards(str(copy))]
    assert names == ["labels_0000.npz", "labels_0001.npz", "labels_0002.npz"]
    assert total >= 700


def test_targets_are_sharpened_shares(labels_dir):
    labels = load_shards([str(labels_dir)], valid=0.1, seed=0).to("cpu")
    i = int(np.flatnonzero(labels.t["mask"].sum(1).numpy() >= 3)[0])
    labels.t["shares"][i] = 0.0
    legal = np.flatnonzero(labels.t["mask"][i].numpy())[:3]
    labels.t["shares"][i, legal] = torch.tensor([0.5, 0.3, 0.2], dtype=labels.t["shares"].dtype)
    target = labels.batch(np.array([i]), DistillConfig(power=3.0))[-1][0]
    # 0.5^3 : 0.3^3 : 0.2^3 = 0.125 : 0.027 : 0.008, out of 0.16.
    assert target[legal].tolist() == pytest.approx([0.78125, 0.16875, 0.05], abs=2e-3)
    assert float(target.sum()) == pytest.approx(1.0, abs=1e-6)


def test_top_targets_leave_nets_move_only_by_the_margin(labels_dir):
    """Shares 0.5 : 0.3 : 0.2 with net's move the second: the top target is the first move,
    unless the margin asks for a lead above its 0.2 over net's move."""
    labels = load_shards([str(labels_dir)], valid=0.1, seed=0).to("cpu")
    i = int(np.flatnonzero(labels.t["mask"].sum(1).numpy() >= 3)[0])
    labels.t["shares"][i] = 0.0
    legal = np.flatnonzero(labels.t["mask"][i].numpy())[:3]
    labels.t["shares"][i, legal] = torch.tensor([0.5, 0.3, 0.2], dtype=labels.t["shares"].dtype)
    labels.t["move"][i] = int(legal[1])
    for margin, want in ((0.0, legal[0]), (0.1, legal[0]), (0.25, legal[1])):
        target = labels.batch(np.array([i]), DistillConfig(target="top", margin=margin))[-1][0]
        assert float(target.sum()) == 1.0 and int(target.argmax()) == int(want), margin


@pytest.mark.parametrize(
    "cfg, message",
    [
        (DistillConfig(target="argmax"), "target must be 'shares' or 'top', not 'argmax'"),
        (DistillConfig(power=0.0), "power must be above 0"),
        (DistillConfig(target="top", margin=-0.1), "margin must be between 0 and 1"),
    ],
)
def test_bad_settings_are_refused_by_name(labels_dir, tmp_path, cfg, message):
    labels = load_shards([str(labels_dir)], valid=0.2, seed=0)
    with pytest.raises(ValueError, match=message):
        distill(str(tmp_path / "d"), labels, SHIPPED, cfg, log=lambda _: None)
    assert not (tmp_path / "d").exists()


def test_distillation_moves_the_network_to_its_labels(labels_dir, tmp_path):
    """Labels that always pick the last legal move, which the shipped network seldom plays:
    after training, its greedy move is that label far more often than before."""
    labels = load_shards([str(labels_dir)], valid=0.2, seed=0)
    mask = np.unpackbits(labels.mask, axis=1, count=NUM_ACTIONS).astype(bool)
    last = NUM_ACTIONS - 1 - np.argmax(mask[:, ::-1], axis=1)
    labels.shares[:] = 0
    labels.shares[np.arange(labels.size), last] = 1
    cfg = DistillConfig(epochs=6, lr=3e-3, blocks=8, block=8, seed=1)
    rows = []
    distill(str(tmp_path / "d"), labels, SHIPPED, cfg, log=lambda r: rows.append(__import__("json").loads(r)))
    assert rows[0]["epoch"] == 0 and rows[-1]["epoch"] == 6
    assert rows[-1]["agree_search"] > rows[0]["agree_search"] + 0.2
    # The checkpoint is one research/export_card_net.py reads.
    from eights.train.cardnet import from_checkpoint
    from eights.train.files import load_checkpoint

    ck = load_checkpoint(tmp_path / "d" / "ckpt.pt")
    net = from_checkpoint(ck["model"], ck["config"]["width"], ck["config"]["context"])
    assert net.width == 32 and ck["state"]["iteration"] == 6
