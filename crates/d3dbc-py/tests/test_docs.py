"""Runs every Python block of docs/python.md, in order, in a folder holding what the
page names: dump.bin (random bytes with the bundled shaders and the tint effect
planted in it), textured.pso and tint.fxo."""

import contextlib
import io
import os
import random
import re
import shutil

from conftest import ROOT


def test_docs_blocks_run(tmp_path, monkeypatch):
    text = (ROOT / "docs" / "python.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 4
    ex = ROOT / "examples"
    for name in ("textured.pso", "tint.fxo"):
        shutil.copy(ex / name, tmp_path / name)
    rng = random.Random(3)
    dump = bytearray(rng.getrandbits(8 * 40_000).to_bytes(40_000, "little"))
    for i, name in enumerate(("transform.vso", "textured.pso", "tint.fxo")):
        data = (ex / name).read_bytes()
        at = 1001 + 9000 * i
        dump[at : at + len(data)] = data
    (tmp_path / "dump.bin").write_bytes(bytes(dump))
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    for k, block in enumerate(blocks):
        with contextlib.redirect_stdout(out):
            exec(compile(block, f"docs/python.md block {k + 1}", "exec"), {})
    printed = out.getvalue()
    assert "Tint in c0" in printed and "E0204 3 10" in printed, printed
    assert os.path.isfile(tmp_path / "textured_fixed.pso")
