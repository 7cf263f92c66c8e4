"""Shared fixtures of the Python suite: the corpus (``D3DBC_CORPUS``, default
``../shared/corpus`` beside the repository), the ``d3dbc`` command the outputs are
compared with (``D3DBC_CLI``, default ``target/debug/d3dbc``), and the corpus shaders
written out once as files the command reads. Without the corpus or the command the
tests that need them skip, saying so; under ``CI=true`` they fail instead."""

import json
import os
import pathlib
import subprocess
from typing import Dict, List, Tuple

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]


def ci() -> bool:
    return os.environ.get("CI") in ("true", "1")


def skip_or_fail(why: str) -> None:
    if ci():
        pytest.fail(f"{why}; CI=true forbids skipping")
    pytest.skip(why)


def corpus_dir() -> pathlib.Path:
    return pathlib.Path(os.environ.get("D3DBC_CORPUS") or ROOT.parent / "shared" / "corpus")


def records(name: str) -> List[dict]:
    path = corpus_dir() / name
    if not path.is_file():
        skip_or_fail(f"corpus file {path} is missing")
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def dwords_bytes(dwords: List[str]) -> bytes:
    return b"".join(int(x, 16).to_bytes(4, "little") for x in dwords)


@pytest.fixture(scope="session")
def cli() -> str:
    path = os.environ.get("D3DBC_CLI") or str(ROOT / "target" / "debug" / "d3dbc")
    if not os.access(path, os.X_OK):
        skip_or_fail(f"the d3dbc command is not built at {path} (cargo build -p d3dbc-cli)")
    return path


def run_cli(cli: str, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    p = subprocess.run([cli, *args], capture_output=True)
    if check and p.returncode not in (0, 1):
        raise AssertionError(f"d3dbc {' '.join(args)}: exit {p.returncode}\n{p.stderr.decode(errors='replace')}")
    return p


CORPUS_BINARIES = ("binaries.jsonl", "wine_d3d9_blobs.jsonl", "vkd3d_d3dbc.jsonl", "fxc10_listings.jsonl")


@pytest.fixture(scope="session")
def corpus_files(tmp_path_factory) -> Tuple[pathlib.Path, Dict[str, bytes]]:
    """Every ``dwords`` of the four bytecode files, one ``.bin`` each (483 inputs, 471
    of which hold a shader that decodes)."""
    out = tmp_path_factory.mktemp("corpus")
    files: Dict[str, bytes] = {}
    for name in CORPUS_BINARIES:
        for i, r in enumerate(records(name)):
            if not r.get("dwords"):
                continue
            data = dwords_bytes(r["dwords"])
            fname = f"{name[:-6]}_{i:03}.bin"
            (out / fname).write_bytes(data)
            files[fname] = data
    return out, files
