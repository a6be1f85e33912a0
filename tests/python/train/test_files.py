"""Loading checkpoints and weights files: tensors and plain data only (a crafted pickle runs
nothing), one clear error naming the file for a damaged or foreign one, and the ``net``
network's loader (``eights.train.cardnet.load``) refusing every file the Rust loader refuses,
plus files with tensors the architecture does not call for, and metadata asking for a network
of gigabytes refused before anything of that size is built."""

from __future__ import annotations

import io
import json
import os
import pickle
import re
import struct
import time
import zipfile

import numpy as np
import pytest

from eights import _core
from eights.__main__ import main

torch = pytest.importorskip("torch", reason="eights.train needs PyTorch (pip install '.[train]')")
pytest.importorskip("safetensors", reason="eights.train needs safetensors (pip install '.[train]')")

from safetensors.torch import load as load_tensors  # noqa: E402
from safetensors.torch import save as save_tensors  # noqa: E402

from eights.train import cardnet  # noqa: E402
from eights.train.cardnet import CardNet, export, load, load_path  # noqa: E402
from eights.train.export import export_metadata  # noqa: E402
from eights.train.files import FileFormatError, load_checkpoint  # noqa: E402


class _Marker:
    """Unpickling this writes a marker file: proof that a loader ran code from a file."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (open, (self.path, "w"))


def _crafted(tmp_path):
    marker = tmp_path / "ran"
    path = tmp_path / "crafted.pt"
    torch.save({"model": {}, "payload": _Marker(str(marker))}, path)
    # torch.save pickles the object's __reduce__: loading it unsafely would call open(marker, "w").
    assert not marker.exists()
    return path, marker


def test_a_crafted_checkpoint_is_refused_without_running_its_code(tmp_path):
    path, marker = _crafted(tmp_path)
    with pytest.raises(FileFormatError, match="crafted.pt: not a checkpoint of this package.*could run code"):
        load_checkpoint(str(path))
    assert not marker.exists()


def test_a_pytorch_whose_weights_only_loader_can_be_escaped_reads_no_file(tmp_path, monkeypatch):
    """``weights_only=True`` is the guard, and PyTorch 2.9.1 and older let a crafted file past
    it (GHSA-63cw-57p8-fm3p; CVE-2025-32434 up to 2.5.1). The extras ask for 2.10; where an
    older one is installed anyway, checkpoints and SB3 models are refused unread."""
    from eights.agents.sb3_file import check_tensors

    path, marker = _crafted(tmp_path)
    good = tmp_path / "good.pt"
    torch.save({"model": {"w": torch.zeros(3)}}, good)
    for version in ("2.9.1+cpu", "2.5.1", "1.13.0"):
        monkeypatch.setattr(torch, "__version__", version)
        for file in (path, good):
            with pytest.raises(ImportError, match=rf"PyTorch {re.escape(version)}.*GHSA-63cw-57p8-fm3p.*torch>=2.10"):
                load_checkpoint(str(file))
        with pytest.raises(ImportError, match="torch>=2.10"):
            check_tensors(str(tmp_path / "model.zip"), zipfile.ZipFile(io.BytesIO(_empty_zip())))
    assert not marker.exists()
    for version in ("2.10.0", "2.15.0+cu132", "3.0.0a0"):
        monkeypatch.setattr(torch, "__version__", version)
        assert "w" in load_checkpoint(str(good))["model"]


def _empty_zip() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w"):
        pass
    return out.getvalue()


@pytest.mark.filterwarnings("ignore:Detected pickle protocol")
def test_damaged_checkpoints_get_one_line_naming_the_file(tmp_path):
    good = tmp_path / "good.pt"
    torch.save({"model": {"w": torch.zeros(3)}, "state": {"update": 1}}, good)
    assert load_checkpoint(str(good), ("model", "state"))["state"] == {"update": 1}
    data = good.read_bytes()
    cases = {
        "truncated.pt": data[: len(data) // 2],
        "empty.pt": b"",
        "text.pt": b"hello, not a checkpoint\n",
        "pickle.pt": pickle.dumps({"model": {}}),
    }
    for name, content in cases.items():
        (tmp_path / name).write_bytes(content)
        with pytest.raises(FileFormatError) as err:
            load_checkpoint(str(tmp_path / name))
        message = str(err.value)
        assert message.startswith(str(tmp_path / name) + ":") and "\n" not in message, (name, message)
    with pytest.raises(FileFormatError, match="missing.pt: no such file"):
        load_checkpoint(str(tmp_path / "missing.pt"))
    with pytest.raises(FileFormatError, match="is a folder"):
        load_checkpoint(str(tmp_path))
    with pytest.raises(FileFormatError, match=r"good.pt: not a checkpoint of this kind: no 'optimizer'"):
        load_checkpoint(str(good), ("model", "optimizer"))
    torch.save([1, 2], tmp_path / "list.pt")
    with pytest.raises(FileFormatError, match="holds a list"):
        load_checkpoint(str(tmp_path / "list.pt"))


def test_the_exploit_command_refuses_a_crafted_checkpoint_in_out(tmp_path, capsys):
    from eights.cli import main

    out = tmp_path / "run"
    out.mkdir()
    crafted, marker = _crafted(tmp_path)
    os.replace(crafted, out / "checkpoint.pt")
    code = main(["exploit", "--agent", "random", "--decisions", "64", "--eval-deals", "2", "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and "checkpoint.pt: not a checkpoint of this package" in err, err
    assert "Traceback" not in err and not marker.exists()


# --------------------------------------------------------------------------- the net's weights


def _exported(tmp_path, attention=False):
    torch.manual_seed(0)
    net = CardNet(8, 16, 8, attention=attention)
    path = tmp_path / "net.safetensors"
    export(net, str(path), {"stages": "[]"})
    return path.read_bytes()


def _rewrite(data, change_tensors=None, change_meta=None):
    """The file ``data`` with its tensors and metadata changed."""
    tensors = dict(load_tensors(data))
    n = struct.unpack("<Q", data[:8])[0]
    meta = dict(json.loads(data[8 : 8 + n])["__metadata__"])
    if change_tensors:
        change_tensors(tensors)
    if change_meta:
        change_meta(meta)
    return save_tensors(tensors, metadata=meta)


def _rust_refuses(data):
    """Whether the Rust loader of the bot refuses the file."""
    obs = np.zeros((1, _core.OBS_SIZE), np.float32)
    mask = np.ones((1, _core.NUM_ACTIONS), bool)
    rules = np.zeros((1, _core.RULES_SIZE), np.float32)
    try:
        _core.card_net_logits(obs, mask, rules, weights=data)
    except ValueError:
        return True
    return False


def _drop(key):
    return lambda t: t.pop(key)


def _set(key, value):
    return lambda m: m.__setitem__(key, value)


DAMAGED = {
    "a tensor missing": (_drop("c1.weight"), None, "tensor 'c1.weight' missing"),
    "a bias missing": (_drop("o.bias"), None, "tensor 'o.bias' missing"),
    "a wrong shape": (lambda t: t.__setitem__("u.weight", torch.zeros(8, 9)), None, "'u.weight' must have shape"),
    "integer values": (lambda t: t.__setitem__("a.bias", torch.zeros(3, dtype=torch.int32)), None, "float32 or"),
    "width above 4096": (None, _set("width", "100000"), r"'width' must be an integer in \[1, 4096\]"),
    "width 0": (None, _set("width", "0"), r"'width' must be an integer in \[1, 4096\]"),
    "width not a number": (None, _set("width", "8.0"), "'width' must be an integer"),
    "context negative": (None, _set("context", "-16"), "'context' must be an integer"),
    "no table_width": (None, lambda m: m.pop("table_width"), "'table_width' missing"),
    "an unknown rules column": (None, _set("card_columns", "points,bogus"), "rules column 'bogus'"),
    "no card_columns": (None, lambda m: m.pop("card_columns"), "'card_columns' missing"),
    "another format": (None, _set("format", "eights-net-v1"), "format must be"),
    "attention claimed in v2": (None, _set("attention", "bilinear"), "'attention' must be absent"),
    "v3 without its layers": (None, _set("format", "eights-net-v3"), "'attention' must be"),
    "v3 claiming attention without tensors": (
        None,
        lambda m: m.update(format="eights-net-v3", attention="bilinear"),
        "tensor 'att_a' missing",
    ),
}


@pytest.mark.parametrize("case", sorted(DAMAGED))
def test_the_net_loader_refuses_what_the_rust_loader_refuses(tmp_path, case):
    tensors, meta, message = DAMAGED[case]
    data = _rewrite(_exported(tmp_path), tensors, meta)
    assert _rust_refuses(data), case  # the Rust loader's verdict, the reference
    with pytest.raises(FileFormatError, match=message):
        load(data, "w.safetensors")


def test_the_net_loader_refuses_tensors_the_architecture_does_not_call_for(tmp_path):
    good = _exported(tmp_path)
    assert load(good).width == 8 and not _rust_refuses(good)
    # Attention matrices in a file whose format has none would be trained layers nobody reads.
    extra = _rewrite(good, lambda t: t.update(att_a=torch.zeros(8, 8), att_b=torch.zeros(8, 8)))
    with pytest.raises(FileFormatError, match="unexpected tensor 'att_a'"):
        load(extra)
    # A value head in the file: the export never writes one.
    with pytest.raises(FileFormatError, match="unexpected tensor 'v.weight'"):
        load(_rewrite(good, lambda t: t.update({"v.weight": torch.zeros(1, 16)})))


def test_the_net_loader_keeps_every_tensor_of_a_good_file(tmp_path):
    data = _exported(tmp_path, attention=True)
    net = load(data)
    assert net.attention
    for key, value in load_tensors(data).items():
        assert torch.equal(net.state_dict()[key], value.float()), key


@pytest.mark.parametrize(
    "content, message",
    [
        (b"", "fewer than the header length's 8"),
        (struct.pack("<Q", 2**63) + b"{}", "header length 9223372036854775808 exceeds the 2 bytes"),
        (struct.pack("<Q", 2**64 - 1), "header length"),
        (struct.pack("<Q", 4) + b"\xff\xfe{}", "damaged safetensors header"),
        (struct.pack("<Q", 2) + b"[]", "not a JSON object"),
        (struct.pack("<Q", 200_001) + b"[" * 100_000 + b"]" * 100_001, r"JSON nested too deeply"),
        (struct.pack("<Q", 24) + b'{"__metadata__": [1, 2]}', "__metadata__ must map strings"),
    ],
)
def test_export_metadata_refuses_a_corrupt_header_clearly(tmp_path, content, message):
    path = tmp_path / "corrupt.safetensors"
    path.write_bytes(content)
    with pytest.raises(FileFormatError, match=message) as err:
        export_metadata(str(path))
    assert str(err.value).startswith(str(path))
    with pytest.raises(FileFormatError, match=message):
        load(content, "corrupt.safetensors")


def test_export_metadata_reads_a_good_file(tmp_path):
    path = tmp_path / "net.safetensors"
    path.write_bytes(_exported(tmp_path))
    assert export_metadata(str(path))["width"] == "8"


def test_exported_policies_with_a_layer_missing_are_refused_naming_the_file(tmp_path):
    # A missing layer was a bare KeyError: 'fc1.weight'.
    from eights import OBS_SIZE
    from eights.train import PolicyNet
    from eights.train.export import load_exported, write_exported

    path = tmp_path / "flat.safetensors"
    write_exported({"crazy_eights": PolicyNet(OBS_SIZE, _core.NUM_ACTIONS, 16)}, str(path), {"stages": "[]"})
    assert set(load_exported(str(path))) == {"crazy_eights"}
    data = path.read_bytes()
    n = struct.unpack("<Q", data[:8])[0]
    meta = json.loads(data[8 : 8 + n])["__metadata__"]
    kept = {k: v for k, v in load_tensors(data).items() if "fc1" not in k}
    path.write_bytes(save_tensors(kept, metadata=meta))
    with pytest.raises(FileFormatError, match=r"flat\.safetensors: not a file of exported policies of this kind"):
        load_exported(str(path))


# ---------------------------------------------------------------- metadata asking for gigabytes

#: Well under a second, against a minute and 1.5 GB (or a 16 GB allocation) before the fix.
QUICK = 1.0


def _only_meta_networks(monkeypatch, error=AssertionError):
    """Building a :class:`CardNet` anywhere but on PyTorch's ``meta`` device raises ``error``."""
    real = CardNet.__init__

    def init(self, *args, **kwargs):
        if torch.empty(0).device.type != "meta":
            raise error("DefaultCPUAllocator: can't allocate memory: a network built before its shapes were checked")
        real(self, *args, **kwargs)

    monkeypatch.setattr(CardNet, "__init__", init)


def _claiming(tmp_path, **meta):
    """An exported 8-wide file whose metadata claims ``meta`` (its tensors stay small)."""
    path = tmp_path / "claims.safetensors"
    path.write_bytes(_rewrite(_exported(tmp_path), change_meta=lambda m: m.update(meta)))
    return path


def _refused_quickly(path, match):
    start = time.perf_counter()
    with pytest.raises(FileFormatError, match=match) as err:
        load_path(str(path))
    assert time.perf_counter() - start < QUICK, f"took {time.perf_counter() - start:.1f} s"
    assert str(err.value).startswith(str(path))


def test_a_net_file_claiming_width_4096_is_refused_before_its_network_is_built(tmp_path, monkeypatch):
    # 10 KB of metadata saying 4096 made `train --init` build the network first: over 60 s, 1.5 GB.
    path = _claiming(tmp_path, width="4096", context="4096", table_width="4096")
    assert _rust_refuses(path.read_bytes())
    _only_meta_networks(monkeypatch)
    _refused_quickly(path, r"tensor 'a\.weight' must have shape \[3, 4096\], got \[3, 8\]")


def test_a_net_file_naming_a_rules_column_a_million_times_is_refused_at_once(tmp_path, monkeypatch, capsys):
    # 7 MB of `card_columns` asked for a 16 GB layer: a raw RuntimeError, a traceback from `train --init`.
    path = _claiming(
        tmp_path, width="4096", context="4096", table_width="4096", card_columns=",".join(["copies"] * 10**6)
    )
    assert _rust_refuses(path.read_bytes())
    _only_meta_networks(monkeypatch)
    message = r"metadata 'card_columns' names 1,000,000 rules columns, more than the encoding's"
    _refused_quickly(path, message)
    assert main(["train", "--init", str(path), "--out", str(tmp_path / "out"), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "'card_columns' names 1,000,000 rules columns" in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "out").exists()


def test_a_net_file_naming_a_rules_column_twice_is_refused(tmp_path):
    # The shapes fit the two columns (the Rust loader would read `copies` twice); no export writes this.
    def twice(t):
        t["r1.weight"] = torch.zeros(8, 2 + 18)

    data = _rewrite(_exported(tmp_path), twice, lambda m: m.update(card_columns="copies,copies"))
    with pytest.raises(FileFormatError, match=r"rules column 'copies' named twice in metadata 'card_columns'"):
        load(data, "twice.safetensors")


def test_a_net_file_that_is_a_fifo_a_device_or_over_256_mb_is_refused_unread(tmp_path):
    fifo = tmp_path / "fifo.safetensors"
    os.mkfifo(fifo)  # a read would block
    _refused_quickly(fifo, r"not a regular file \(a FIFO\), not read")
    with pytest.raises(FileFormatError, match=r"^/dev/zero: not a regular file \(a device\)"):
        load_path("/dev/zero")
    big = tmp_path / "big.safetensors"
    with open(big, "wb") as f:
        f.truncate((256 << 20) + 1)  # sparse: nothing written
    _refused_quickly(big, r"268,435,457 bytes or more, over the 268,435,456 a weights file may have")


@pytest.mark.parametrize("where", ["building the network", "loading the file"])
def test_train_init_reports_a_network_too_large_to_build_in_one_line(tmp_path, monkeypatch, capsys, where):
    # A file whose shapes all fit, but whose network PyTorch cannot allocate: one line, exit 2.
    path = tmp_path / "net.safetensors"
    path.write_bytes(_exported(tmp_path))
    if where == "building the network":
        _only_meta_networks(monkeypatch, RuntimeError)
        with pytest.raises(FileFormatError, match=r"net\.safetensors: its network cannot be built \(RuntimeError: "):
            load_path(str(path))
    else:
        monkeypatch.setattr(cardnet, "load_path", lambda p: (_ for _ in ()).throw(MemoryError()))
    assert main(["train", "--init", str(path), "--out", str(tmp_path / "out"), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --init: ") and len(err.strip().splitlines()) == 1, err


def test_export_and_load_name_a_bad_argument_before_writing(tmp_path):
    # From an audit: raw TypeErrors ("object of type 'NoneType' has no len()"), an error naming
    # a temporary file in a folder that did not exist, an int8 file that both loaders refuse
    # written without a word, and a record that overwrote the format tag.
    net = cardnet.shipped()
    path = str(tmp_path / "n.safetensors")
    cases = [
        (lambda: load(None), TypeError, r"^data must be the bytes of an exported file, got NoneType$"),
        (lambda: load("x"), TypeError, r"^data must be the bytes of an exported file, got str$"),
        (lambda: load_path(5), TypeError, r"^path must be a file path"),
        (lambda: export(5, path), TypeError, r"^net must be an eights.train.cardnet.CardNet, got int$"),
        (lambda: export(net, str(tmp_path / "no" / "n.safetensors")), FileNotFoundError, r"no such folder"),
        (lambda: export(net, path, dtype=torch.int8), ValueError, r"^dtype must be torch.float16 or torch.float32"),
        (lambda: export(net, path, record={"format": "x"}), ValueError, r"^record may not set 'format'"),
        (lambda: export(net, path, record={"width": "8"}), ValueError, r"^record may not set 'width'"),
        (lambda: export(net, path, record={"a": 5}), TypeError, r"^record must be a dict of strings"),
    ]
    for call, error, match in cases:
        with pytest.raises(error, match=match):
            call()
    assert not any(tmp_path.iterdir())
    export(net, path, record={"stages": "[]"}, dtype=torch.float32)
    assert load(bytearray(open(path, "rb").read())).width == net.width
    assert load_path(path).width == net.width


def test_write_exported_keeps_its_format_tag(tmp_path):
    from eights.train import PolicyNet
    from eights.train.export import write_exported

    policies = {"crazy_eights": PolicyNet(_core.OBS_SIZE, _core.NUM_ACTIONS, 16)}
    with pytest.raises(ValueError, match=r"^meta may not set 'format': the file's own metadata$"):
        write_exported(policies, str(tmp_path / "w.safetensors"), {"format": "evil"})
    assert not any(tmp_path.iterdir())
