"""``assemble`` against ``d3dbc asm`` and the Windows-verified Wine cases: the same
bytes, the same refusals, errors with code, line and column."""

import d3dbc
import pytest

from conftest import ROOT, dwords_bytes, records, run_cli


def test_wine_cases_equal_the_command(cli, tmp_path):
    cases = [r for r in records("wine_asm.jsonl") if r.get("expected") or r.get("expect_fail")]
    assert len(cases) == 249
    for i, r in enumerate(cases):
        (tmp_path / f"c{i:03}.asm").write_text(r["text"], encoding="utf-8")
    out = tmp_path / "out"
    p = run_cli(cli, "asm", str(tmp_path), "--ext", "asm", "--out-dir", str(out), "--no-validate")
    failed_cli = p.stderr.decode()
    exact = refused = 0
    for i, r in enumerate(cases):
        name = f"c{i:03}"
        try:
            sh = d3dbc.assemble(r["text"], validate=False, file_name=f"{name}.asm")
        except d3dbc.AsmError as e:
            assert not list(out.glob(f"{name}.*")), name
            assert e.line is not None and e.column is not None, (name, e)
            # The command reports the same first error at the same place.
            assert f"{name}.asm:{e.line}:{e.column}:" in failed_cli, (name, e.message)
            assert e.message.splitlines()[0] in failed_cli, (name, e.message)
            refused += r.get("expect_fail", False)
            continue
        built = next(out.glob(f"{name}.*")).read_bytes()
        assert sh.to_bytes() == built, name
        if r.get("expected"):
            assert sh.to_bytes() == dwords_bytes(r["expected"]), name
            exact += 1
    assert (exact, refused) == (192, 57)


def test_helix_listings_equal_the_command(cli, tmp_path):
    texts = [r["text"] for r in records("helix_asm.jsonl")][::25]
    for i, t in enumerate(texts):
        (tmp_path / f"h{i:03}.asm").write_text(t, encoding="utf-8")
    out = tmp_path / "out"
    p = run_cli(cli, "asm", str(tmp_path), "--ext", "asm", "--out-dir", str(out))
    assert p.returncode in (0, 1)
    same = 0
    for i, t in enumerate(texts):
        built = list(out.glob(f"h{i:03}.*"))
        try:
            sh = d3dbc.assemble(t)
        except d3dbc.AsmError as e:
            assert not built, (i, e)
            assert f"input:{e.line}:{e.column}:" in e.message
            continue
        assert [sh.to_bytes()] == [b.read_bytes() for b in built], i
        # The listing header's constant table is rebuilt, as `asm` does.
        assert sh.disassemble() == run_cli(cli, "dis", str(built[0])).stdout.decode()
        same += 1
    assert same > len(texts) * 0.9


def test_asm_error_fields():
    with pytest.raises(d3dbc.AsmError) as e:
        d3dbc.assemble("ps_2_0\ndcl t0\nmov oC0, r9\n", file_name="x.asm")
    err = e.value
    assert (err.code, err.line, err.column) == ("E0204", 3, 10)
    assert err.message.startswith("x.asm:3:10: error[E0204]:"), err.message
    assert "^" in err.diagnostics[0]
    assert isinstance(err, d3dbc.D3dbcError)
    with pytest.raises(d3dbc.AsmError) as e:
        d3dbc.assemble("ps_2_0\nfrobnicate r0\n")
    assert (e.value.line, e.value.column) == (2, 1)
    assert e.value.code is None
    # Skipping validation takes the runtime-invalid shader; raw takes even more.
    sh = d3dbc.assemble("ps_2_0\ndcl t0\nmov oC0, r9\n", validate=False)
    assert [f.code for f in sh.validate()][:1] == ["E0204"]


def test_preprocessor_defines_and_includes(tmp_path):
    (tmp_path / "inc.h").write_text("#define COLOR t0\n")
    text = '#include "inc.h"\nps_2_0\ndcl COLOR\nmov oC0, SCALE\n'
    sh = d3dbc.assemble(text, defines={"SCALE": "t0"}, include_dirs=[tmp_path])
    assert "mov oC0, t0" in sh.disassemble()
    with pytest.raises(d3dbc.AsmError):
        d3dbc.assemble(text, defines={"SCALE": "t0"})


def test_constant_table_rebuilt_from_the_header():
    """dis → edit → assemble keeps the constant table (names, registers, types,
    defaults), as `d3dbc asm` rebuilds it from the listing's header."""
    sh = d3dbc.Shader.from_file(ROOT / "examples" / "textured.pso")
    c = {k.name: k for k in sh.constants}
    assert (c["Tint"].register_set, c["Tint"].register, c["Tint"].count) == ("float4", 0, 1)
    assert (c["Tint"].type.class_, c["Tint"].type.rows, c["Tint"].type.columns) == ("vector", 1, 4)
    assert c["Diffuse"].register_set == "sampler" and c["Diffuse"].register_name == "s0"
    edited = sh.disassemble().replace("mul r0, r0, v0", "add r0, r0, v0")
    again = d3dbc.assemble(edited)
    assert again.constants == sh.constants
    assert [i.text for i in again.instructions if i.opcode == "add"] == ["add r0, r0, v0"]
    assert not again.validate()
