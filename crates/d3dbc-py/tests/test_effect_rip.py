"""Effects (techniques, parameters, set, pass shaders) and ``rip`` against the
``d3dbc`` command on the corpus effects."""

import json
import os
import random

import d3dbc
import pytest

from conftest import ROOT, dwords_bytes, records, run_cli


def corpus_effects():
    return [dwords_bytes(r["dwords"]) for name in ("fxc_effects.jsonl", "wine_fx.jsonl") for r in records(name)]


def test_effects_equal_dis_json(cli, tmp_path):
    effects = corpus_effects()
    assert len(effects) == 47
    for i, data in enumerate(effects):
        fx = d3dbc.Effect.from_bytes(data)
        path = tmp_path / f"e{i}.fxo"
        path.write_bytes(data)
        model = json.loads(run_cli(cli, "dis", str(path), "--format", "json").stdout)[0]["effect"]
        assert [t.name for t in fx.techniques] == [t["name"] for t in model["techniques"]]
        assert [[p.name for p in t.passes] for t in fx.techniques] == [[p["name"] for p in t["passes"]] for t in model["techniques"]]
        assert [p.name for p in fx.parameters] == [p["name"] for p in model["parameters"]]
        assert [p.semantic for p in fx.parameters] == [p.get("semantic") or "" for p in model["parameters"]]
        assert fx.disassemble() == run_cli(cli, "dis", str(path)).stdout.decode()
        assert fx.to_bytes() == data


def test_pass_shaders_run_as_the_command(cli, tmp_path):
    """`run X.fxo --set ...` runs the pass's pixel shader with the constants the pass
    gives it; `pass_shaders` hands over the same shader with the same constants."""
    path = ROOT / "examples" / "tint.fxo"
    fx = d3dbc.Effect.from_file(path)
    assert [t.name for t in fx.techniques] == ["Tint"]
    (tint,) = fx.parameters
    assert (tint.name, tint.type, tint.class_, tint.columns) == ("tint", "float", "vector", 4)
    assert tint.value == [1.0, 0.5, 0.25, 1.0]
    fx.set("tint", (0.25, 1, 0.5, 1))
    assert fx.parameters[0].value == [0.25, 1.0, 0.5, 1.0]
    vs, ps = fx.pass_shaders("Tint", 0)
    assert vs.version.startswith("vs_") and ps.version.startswith("ps_")
    want = json.loads(run_cli(cli, "run", str(path), "--set", "tint=0.25,1,0.5,1", "--format", "json").stdout)
    assert {k: list(v) for k, v in ps.run().items()} == want["outputs"]
    with pytest.raises(d3dbc.EffectError):
        fx.set("nope", 1)
    with pytest.raises(d3dbc.ArgumentError):
        fx.set("tint", (1, 2))
    with pytest.raises(d3dbc.EffectError):
        fx.pass_shaders("Nope", 0)
    with pytest.raises(d3dbc.EffectError):
        fx.pass_shaders(0, 3)


def test_every_corpus_pass_gives_its_shaders():
    passes = 0
    for data in corpus_effects():
        fx = d3dbc.Effect.from_bytes(data)
        for t in fx.techniques:
            for k in range(len(t.passes)):
                try:
                    vs, ps = fx.pass_shaders(t.name, k)
                except d3dbc.EffectError:
                    continue
                for s in (vs, ps):
                    if s is not None:
                        assert s.disassemble()
                passes += 1
    assert passes > 40


def test_effect_errors_carry_the_byte_offset():
    data = corpus_effects()[0]
    for cut in (8, 40, len(data) // 2):
        with pytest.raises(d3dbc.EffectError) as e:
            d3dbc.Effect.from_bytes(data[:cut])
        assert e.value.offset is not None and e.value.offset <= cut
    with pytest.raises(d3dbc.EffectError):
        d3dbc.Effect.from_bytes(b"\x00\x02\xff\xff" * 4)


def test_rip_equals_the_command(cli, tmp_path):
    rng = random.Random(7)
    blob = bytearray(rng.getrandbits(8 * 50_000).to_bytes(50_000, "little"))
    planted = []
    for i, data in enumerate([dwords_bytes(r["dwords"]) for r in records("binaries.jsonl")][:6] + corpus_effects()[:2]):
        at = 3000 + i * 5003
        blob[at : at + len(data)] = data
        planted.append(at)
    path = tmp_path / "dump.bin"
    path.write_bytes(bytes(blob))
    finds = d3dbc.rip(bytes(blob))
    want = json.loads(run_cli(cli, "rip", str(path), "--json").stdout)
    assert [(f.offset, f.size, f.kind, f.version, f"{f.crc32:08x}") for f in finds] == [
        (w["offset"], w["size"], w["kind"], w["version"], w["crc32"]) for w in want
    ]
    assert set(planted) <= {f.offset for f in finds}
    shader = d3dbc.Shader.from_bytes(bytes(blob[finds[0].offset : finds[0].offset + finds[0].size]))
    assert shader.version == finds[0].version
