"""Bad input raises d3dbc's exceptions and never crashes; memory stays bounded over
10,000 calls; long calls release the GIL; results have the documented types."""

import gc
import random
import resource
import threading
import time
import tracemalloc

import d3dbc
import numpy
import pytest

from conftest import dwords_bytes, records

PS = "ps_2_0\ndef c0, 1, 0.5, 0.25, 1\ndcl t0.xy\ndcl_2d s0\ntexld r0, t0, s0\nmul oC0, r0, c0\n"


def test_decode_errors_say_what_and_where():
    for data, part in ((b"", "empty"), (b"\x01\x02", "too short"), (b"ps_2_0\nmov oC0, t0\n", "assemble")):
        with pytest.raises(d3dbc.DecodeError) as e:
            d3dbc.Shader.from_bytes(data)
        assert part in e.value.message, e.value.message
    good = d3dbc.assemble(PS).to_bytes()
    with pytest.raises(d3dbc.DecodeError) as e:
        d3dbc.Shader.from_bytes(good[:-8])
    assert e.value.offset is not None
    with pytest.raises(TypeError):
        d3dbc.Shader.from_bytes("text")  # type: ignore[arg-type]
    fx = dwords_bytes(records("wine_fx.jsonl")[0]["dwords"])
    with pytest.raises(d3dbc.DecodeError) as e:
        d3dbc.Shader.from_bytes(fx)
    assert "Effect" in e.value.message


def test_mutated_inputs_never_crash():
    rng = random.Random(28)
    seeds = [dwords_bytes(r["dwords"]) for r in records("binaries.jsonl")[:20]]
    seeds += [dwords_bytes(r["dwords"]) for r in records("wine_fx.jsonl")[:3]]
    outcomes = {"ok": 0, "error": 0}
    for i in range(3000):
        data = bytearray(rng.choice(seeds))
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        if rng.random() < 0.2:
            data = data[: rng.randrange(len(data))]
        data = bytes(data)
        try:
            sh = d3dbc.Shader.from_bytes(data)
            sh.disassemble(offsets=True, tokens=True)
            sh.instructions
            sh.constants
            if not sh.validate():
                sh.run()
            outcomes["ok"] += 1
        except d3dbc.D3dbcError:
            outcomes["error"] += 1
        try:
            fx = d3dbc.Effect.from_bytes(data)
            fx.techniques, fx.parameters
            fx.pass_shaders(0, 0)
        except d3dbc.D3dbcError:
            pass
        d3dbc.rip(data)
    assert outcomes["ok"] > 100 and outcomes["error"] > 100, outcomes


def test_types_and_shapes():
    sh = d3dbc.assemble(PS)
    assert isinstance(sh.version, str) and isinstance(sh.to_bytes(), bytes)
    img = sh.render(width=96, height=64)
    assert isinstance(img, numpy.ndarray)
    assert img.shape == (64, 96, 4) and img.dtype == numpy.uint8
    assert isinstance(sh.translate("spirv"), bytes) and isinstance(sh.translate("glsl"), str)
    ins = sh.instructions
    assert [i.opcode for i in ins] == ["def", "dcl", "dcl", "texld", "mul"]
    assert ins[0].values == [1.0, 0.5, 0.25, 1.0]
    assert set(ins[1].dcl) == {"usage", "usage_index"} and ins[1].dst.mask == "xy"
    assert ins[2].dcl == {"sampler_type": "2d"}
    assert (ins[4].dst.register, ins[4].dst.index, ins[4].srcs[1].register) == ("oC0", 0, "c0")
    f = d3dbc.assemble("ps_2_0\nmov oC0, r5\n", validate=False).validate()[0]
    assert (f.code, f.offset) == ("E0204", 1) and f == d3dbc.Finding(*f)


def rss_kib() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def test_no_leak_over_10000_calls():
    data = d3dbc.assemble(PS).to_bytes()
    bad = data[:-8]

    def round_():
        sh = d3dbc.Shader.from_bytes(data)
        sh.disassemble()
        sh.validate()
        sh.constants
        try:
            d3dbc.Shader.from_bytes(bad)
        except d3dbc.DecodeError:
            pass

    for _ in range(500):
        round_()
    for _ in range(50):
        d3dbc.assemble(PS).run({"t0": (0.5, 0.5)})
    gc.collect()
    tracemalloc.start()
    before_rss = rss_kib()
    snap0 = tracemalloc.take_snapshot()
    for i in range(10_000):
        round_()
        if i % 20 == 0:
            d3dbc.assemble(PS).run({"t0": (0.5, 0.5)})
    gc.collect()
    grown = sum(s.size_diff for s in tracemalloc.take_snapshot().compare_to(snap0, "filename"))
    tracemalloc.stop()
    rss_grown = rss_kib() - before_rss
    assert grown < 256 * 1024, f"Python heap grew {grown} bytes over 10,000 calls"
    assert rss_grown < 16 * 1024, f"RSS grew {rss_grown} KiB over 10,000 calls"


def test_long_calls_release_the_gil():
    sh = d3dbc.assemble(PS)
    done = threading.Event()
    ticks = [0]

    def spin():
        while not done.is_set():
            ticks[0] += 1

    t = threading.Thread(target=spin)
    t.start()
    try:
        start = time.perf_counter()
        sh.render(1024, 1024)
        took = time.perf_counter() - start
    finally:
        done.set()
        t.join()
    # With the GIL held for the whole render the other thread would hardly run at all.
    assert took > 0.05 and ticks[0] > 10_000, (took, ticks[0])
