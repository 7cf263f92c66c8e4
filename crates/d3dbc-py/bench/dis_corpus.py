"""`Shader.from_bytes(data).disassemble()` over the 471 corpus binaries from Python: the
figure the Rust bench `cargo bench -p d3dbc-bind --bench dis_corpus` measures in
process, through the wheel. Prints shaders, bytes, the median of ROUNDS rounds (and the
range) in ms, MiB/s and shaders/s.

    target/py/venv/bin/python crates/d3dbc-py/bench/dis_corpus.py [ROUNDS]
"""

import json
import os
import pathlib
import statistics
import sys
import time

import d3dbc

ROOT = pathlib.Path(__file__).resolve().parents[3]
CORPUS = pathlib.Path(os.environ.get("D3DBC_CORPUS") or ROOT.parent / "shared" / "corpus")


def load():
    out = []
    for name in ("binaries.jsonl", "wine_d3d9_blobs.jsonl", "vkd3d_d3dbc.jsonl", "fxc10_listings.jsonl"):
        for line in (CORPUS / name).read_text(encoding="utf-8").splitlines():
            r = json.loads(line)
            if not r.get("dwords"):
                continue
            data = b"".join(int(w, 16).to_bytes(4, "little") for w in r["dwords"])
            try:
                d3dbc.Shader.from_bytes(data)
            except d3dbc.DecodeError:
                continue
            out.append(data)
    return out


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    inputs = load()
    size = sum(map(len, inputs))
    from_bytes = d3dbc.Shader.from_bytes
    times = []
    for _ in range(rounds + 3):
        t = time.perf_counter()
        for data in inputs:
            from_bytes(data).disassemble()
        times.append(time.perf_counter() - t)
    times = times[3:]
    med = statistics.median(times)
    print(
        f"{len(inputs)} shaders, {size} bytes: median {med * 1e3:.3f} ms "
        f"({min(times) * 1e3:.3f}-{max(times) * 1e3:.3f}), "
        f"{size / med / 2**20:.1f} MiB/s, {len(inputs) / med / 1e3:.1f} k shaders/s"
    )


if __name__ == "__main__":
    main()
