"""The package's annotations and stubs (`_native.pyi`) agree: `mypy --strict` over the
installed package, and over a small program using the API as the docs do."""

import subprocess
import sys


from conftest import skip_or_fail

USER = '''
import d3dbc
sh: d3dbc.Shader = d3dbc.Shader.from_bytes(b"")
text: str = sh.disassemble(offsets=True)
names = [c.name for c in sh.constants if c.register_set == "float4"]
regs = [i.dst.register for i in sh.instructions if i.dst is not None]
codes = [f.code for f in sh.validate()]
out = sh.run({"t0": (0.5, 0.5)}, {"c0": (1, 0, 0, 1)})
killed: bool | None = out.killed
try:
    d3dbc.assemble("ps_2_0")
except d3dbc.AsmError as e:
    line: int | None = e.line
fx = d3dbc.Effect.from_bytes(b"")
vs, ps = fx.pass_shaders("T", 0)
crcs = [f.crc32 for f in d3dbc.rip(b"")]
'''


def test_mypy_strict(tmp_path):
    try:
        import mypy  # noqa: F401
    except ImportError:
        skip_or_fail("mypy is not installed (cargo xtask py installs it)")
    user = tmp_path / "user.py"
    user.write_text(USER)
    for target in (["-p", "d3dbc"], [str(user)]):
        p = subprocess.run(
            [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache"), *target],
            capture_output=True,
            text=True,
            cwd=tmp_path,
        )
        assert p.returncode == 0, (target, p.stdout + p.stderr)
