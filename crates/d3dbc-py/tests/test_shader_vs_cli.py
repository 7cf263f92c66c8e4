"""Shader reading, listing, constants, instructions and findings over the 471 corpus
binaries, each equal to what the ``d3dbc`` command gives for the same file."""

import json

import d3dbc
import pytest

from conftest import run_cli


def read_all(files):
    """name → Shader for every input that holds one, name → DecodeError otherwise."""
    shaders, errors = {}, {}
    for name, data in files.items():
        try:
            shaders[name] = d3dbc.Shader.from_bytes(data)
        except d3dbc.DecodeError as e:
            errors[name] = e
    return shaders, errors


def test_reads_the_corpus_as_the_command_does(cli, corpus_files):
    d, files = corpus_files
    shaders, errors = read_all(files)
    assert len(shaders) == 471, (len(shaders), sorted(errors)[:5])
    p = run_cli(cli, "dis", str(d), "--ext", "bin", "--format", "json")
    recs = {r["file"].rsplit("/", 1)[-1]: r for r in json.loads(p.stdout)}
    assert set(recs) == set(files)
    for name, r in recs.items():
        assert (r["status"] == "ok") == (name in shaders), (name, r["status"], errors.get(name))
        if name in errors:
            e = errors[name]
            assert e.message, name
            # The command says the same thing (its diagnostic carries the decoder's text).
            said = " ".join(x["message"] for x in r["diagnostics"])
            assert e.message in said or said in e.message, (name, e.message, said)


def test_listing_equals_dis(cli, corpus_files, tmp_path):
    d, files = corpus_files
    shaders, _ = read_all(files)
    for flags, kw in (((), {}), (("--offsets", "--tokens"), {"offsets": True, "tokens": True})):
        out = tmp_path / ("plain" if not flags else "flags")
        run_cli(cli, "dis", str(d), "--ext", "bin", "--out-dir", str(out), *flags)
        for name, sh in shaders.items():
            want = (out / (name[:-4] + ".asm")).read_text(encoding="utf-8")
            assert sh.disassemble(**kw) == want, name


def test_instructions_and_constants_equal_dis_json(cli, corpus_files):
    d, files = corpus_files
    shaders, _ = read_all(files)
    p = run_cli(cli, "dis", str(d), "--ext", "bin", "--format", "json")
    checked = 0
    for r in json.loads(p.stdout):
        name = r["file"].rsplit("/", 1)[-1]
        if r["status"] != "ok":
            continue
        sh = shaders[name]
        want = [i for i in r["shaders"][0]["items"] if "comment" not in i]
        assert json.loads(sh._n.instructions_json()) == want, name
        ins = sh.instructions
        assert [i.offset for i in ins] == [w["offset"] for w in want]
        assert [i.text for i in ins] == [w["text"] for w in want]
        for i, w in zip(ins, want):
            assert list(i.tokens) == [int(t, 16) for t in w["tokens"]]
            if i.dst is not None:
                assert (i.dst.register, i.dst.mask) == (w["dst"]["register"], w["dst"]["mask"])
            assert [s.swizzle for s in i.srcs] == [s["swizzle"] for s in w.get("srcs", [])]
        ctab = r["shaders"][0]["ctab"]
        if ctab is not None and "error" in ctab:
            with pytest.raises(d3dbc.DecodeError) as e:
                sh.constants
            assert ctab["error"] in e.value.message, name
        elif ctab is None:
            assert sh.constants == [], name
        else:
            consts = sh.constants
            assert json.loads(sh._n.constants_json()) == ctab["constants"], name
            assert [c.name for c in consts] == [c["name"] for c in ctab["constants"]]
            assert [c.register_name for c in consts] == [c["register"] for c in ctab["constants"]]
            for c in consts:
                assert c.register_name == f"{c.register_name[0]}{c.register}"
        checked += 1
    assert checked == 471


def test_findings_equal_validate_json(cli, corpus_files):
    d, files = corpus_files
    shaders, _ = read_all(files)
    p = run_cli(cli, "validate", str(d), "--ext", "bin", "--format", "json")
    n_invalid = 0
    for r in json.loads(p.stdout):
        name = r["file"].rsplit("/", 1)[-1]
        if name not in shaders:
            continue
        want = r["shaders"][0]["findings"]
        got = shaders[name].validate()
        assert [f._asdict() for f in got] == [
            {k: w[k] for k in ("code", "message", "offset", "severity", "instruction", "location")} for w in want
        ], name
        n_invalid += bool([f for f in got if f.severity == "error"])
    assert 0 < n_invalid < 471


def test_to_bytes_round_trips(corpus_files):
    _, files = corpus_files
    shaders, _ = read_all(files)
    for name, sh in shaders.items():
        again = d3dbc.Shader.from_bytes(sh.to_bytes())
        assert again == sh and again.disassemble() == sh.disassemble(), name
        assert bytes(sh) == sh.to_bytes()
        assert files[name].startswith(sh.to_bytes())


def test_reads_headers_and_hex_as_the_command(cli, corpus_files, tmp_path):
    _, files = corpus_files
    data = files["binaries_000.bin"]
    sh = d3dbc.Shader.from_bytes(data)
    words = [int.from_bytes(data[i : i + 4], "little") for i in range(0, len(data), 4)]
    hex_text = ", ".join(f"0x{w:08x}" for w in words).encode()
    header = ("const DWORD g_ps[] = {\n" + ",\n".join(f"    0x{w:08x}" for w in words) + "\n};\n").encode()
    for form in (hex_text, header, bytearray(data), memoryview(data)):
        assert d3dbc.Shader.from_bytes(form) == sh
    path = tmp_path / "x.h"
    path.write_bytes(header)
    assert d3dbc.Shader.from_file(path) == sh
    assert d3dbc.Shader.from_file(str(path)).disassemble() == run_cli(cli, "dis", str(path)).stdout.decode()
