"""d3dbc: Direct3D 9 shader bytecode (shader models 1-3) from Python.

Read a shader (bytecode, an fxc ``/Fh`` header or hex text, as the ``d3dbc`` command
reads it) or assemble one, then list it exactly as Microsoft's tools do, walk its
constant table and instructions, validate it with the runtime's rules, translate it
to SPIR-V, WGSL, GLSL, MSL or HLSL, run it on the CPU reference executor or render
what it draws. Effects (fx_2_0) give their techniques, parameters and the shaders a
pass binds; :func:`rip` finds shaders and effects inside any file::

    import d3dbc
    sh = d3dbc.Shader.from_file("water.pso")
    print(sh.version, sh.disassemble())
    for c in sh.constants:
        print(c.name, c.register_name)
    assert not sh.validate()
    picture = sh.render(width=96, height=64)    # numpy uint8 array (64, 96, 4)

Every failure raises a :class:`D3dbcError` subclass (:class:`DecodeError`,
:class:`AsmError` with ``code``, ``line`` and ``column``, :class:`ValidationError` with
the ``findings``, …); long calls release the GIL. The native work is done by the Rust
crates behind the ``d3dbc`` command, so results equal the command's.
"""

import json
import os
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from . import _native
from ._errors import (
    ArgumentError,
    AsmError,
    D3dbcError,
    DecodeError,
    EffectError,
    RunError,
    TranslateError,
    ValidationError,
)
from ._types import (
    Constant,
    ConstantType,
    Find,
    Finding,
    Instruction,
    Operand,
    Outputs,
    Parameter,
    Pass,
    Technique,
    annotations as _annotations,
)

__version__: str = _native.__version__

__all__ = [
    "Shader",
    "Effect",
    "assemble",
    "rip",
    "Constant",
    "ConstantType",
    "Find",
    "Finding",
    "Instruction",
    "Operand",
    "Outputs",
    "Parameter",
    "Pass",
    "Technique",
    "D3dbcError",
    "DecodeError",
    "AsmError",
    "ValidationError",
    "TranslateError",
    "RunError",
    "EffectError",
    "ArgumentError",
]

BytesLike = Union[bytes, bytearray, memoryview]
PathLike = Union[str, "os.PathLike[str]"]
Values = Union[float, int, bool, Sequence[Union[float, int, bool]]]


def _bytes(data: BytesLike) -> bytes:
    if isinstance(data, bytes):
        return data
    if isinstance(data, (bytearray, memoryview)):
        return bytes(data)
    raise TypeError(f"expected bytes, bytearray or memoryview, got {type(data).__name__}")


def _values(name: str, v: Values) -> List[Union[float, bool]]:
    if isinstance(v, (bool, int, float)):
        return [v]
    try:
        out = list(v)
    except TypeError:
        raise ArgumentError(f"{name}: expected a number or a sequence of numbers, got {type(v).__name__}") from None
    return out


def _constants(constants: Optional[Mapping[str, Values]]) -> Dict[str, Any]:
    return {str(k): _values(str(k), v) for k, v in (constants or {}).items()}


def _textures(textures: Optional[Mapping[Union[int, str], Any]]) -> List[Tuple[int, int, int, bytes]]:
    out = []
    for stage, image in (textures or {}).items():
        s = int(stage[1:]) if isinstance(stage, str) and stage.startswith("s") and stage[1:].isdigit() else stage
        if not isinstance(s, int):
            raise ArgumentError(f"texture {stage!r}: expected a sampler stage, 0-15 or 's0'-'s15'")
        shape = getattr(image, "shape", None)
        if shape is None or len(shape) != 3 or shape[2] != 4:
            raise ArgumentError(f"texture s{s}: expected a (height, width, 4) uint8 array")
        out.append((s, int(shape[1]), int(shape[0]), bytes(memoryview(image).cast("B"))))
    return out


class Shader:
    """One shader, read once. Build it with :meth:`from_bytes`, :meth:`from_file` or
    :func:`assemble`; shaders an effect's pass binds come from
    :meth:`Effect.pass_shaders` and carry the pass's constants."""

    __slots__ = ("_n", "warnings")

    def __init__(self, native: "_native.Shader", warnings: Sequence[str] = ()) -> None:
        self._n = native
        #: Warnings from reading or assembling (data after the end token, a constant
        #: table header that could not be read).
        self.warnings: List[str] = list(warnings)

    @classmethod
    def from_bytes(cls, data: BytesLike) -> "Shader":
        """The first shader in ``data``: raw bytecode (``.vso``/``.pso``/``.cso``), an
        fxc ``/Fh`` C header, or hex text (``0xfffe0200, ...`` or a byte dump).
        Raises :class:`DecodeError` (assembly text: use :func:`assemble`; effects:
        :meth:`Effect.from_bytes`)."""
        native, warnings = _native.Shader.from_bytes(_bytes(data))
        return cls(native, warnings)

    @classmethod
    def from_file(cls, path: PathLike) -> "Shader":
        """:meth:`from_bytes` of a file's contents."""
        with open(path, "rb") as f:
            return cls.from_bytes(f.read())

    @property
    def version(self) -> str:
        """``ps_3_0``, ``vs_1_1``, ``ps_2_x``…"""
        return self._n.version

    @property
    def is_pixel(self) -> bool:
        """Whether this is a pixel shader."""
        return self._n.is_pixel

    def to_bytes(self) -> bytes:
        """The bytecode (little-endian DWORDs), what a ``.pso``/``.vso`` file holds."""
        return self._n.to_bytes()

    def __bytes__(self) -> bytes:
        return self._n.to_bytes()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Shader) and self.to_bytes() == other.to_bytes()

    def __hash__(self) -> int:
        return hash(self.to_bytes())

    def __repr__(self) -> str:
        return f"<d3dbc.Shader {self.version}, {len(self.to_bytes())} bytes>"

    def disassemble(self, offsets: bool = False, tokens: bool = False) -> str:
        """The listing ``d3dbc dis`` prints (Microsoft's format: the constant table
        header, the instructions, the slot-count footer); ``offsets`` and ``tokens``
        add each instruction's DWORD offset and raw tokens, as ``--offsets``/``--tokens``."""
        return self._n.disassemble(offsets, tokens)

    @property
    def constants(self) -> List[Constant]:
        """The constant table's entries (empty without a table)."""
        return [Constant._of(c) for c in json.loads(self._n.constants_json())]

    @property
    def instructions(self) -> List[Instruction]:
        """The instructions in order (comments left out), as ``dis --format json``
        describes them."""
        return [Instruction._of(i) for i in json.loads(self._n.instructions_json())]

    def validate(self) -> List[Finding]:
        """The runtime validator's findings; empty when the runtime accepts the shader."""
        return [Finding._of(f) for f in json.loads(self._n.findings_json())]

    def translate(self, target: str, *, validate: bool = True, via: str = "direct", **options: Any) -> Union[bytes, str]:
        """Translates to ``target``: ``"spirv"`` gives bytes (the direct back end;
        ``via="naga"`` goes through naga), ``"wgsl"``, ``"glsl"``, ``"msl"`` and
        ``"hlsl"`` give text, exactly as ``d3dbc translate`` writes them. Keyword
        options are ``d3dbc_naga::TranslateOptions``: ``semantics={...}``,
        ``pipeline={...}``. Raises :class:`ValidationError` for a shader the runtime
        rejects (``validate=False`` goes ahead), :class:`TranslateError`."""
        if via not in ("direct", "naga"):
            raise ArgumentError(f"via={via!r}: expected 'direct' or 'naga'")
        return self._n.translate(target, json.dumps(options) if options else "", validate, via == "naga")

    def interface(self, *, validate: bool = True, **options: Any) -> Dict[str, Any]:
        """The interface a translation gives the host (constant buffers, texture and
        sampler bindings, vertex inputs, varyings), as ``d3dbc translate --interface``
        writes it."""
        iface: Dict[str, Any] = json.loads(self._n.interface_json(json.dumps(options) if options else "", validate))
        return iface

    def run(
        self,
        inputs: Optional[Mapping[str, Sequence[float]]] = None,
        constants: Optional[Mapping[str, Values]] = None,
        *,
        trace: bool = False,
        validate: bool = True,
    ) -> Outputs:
        """Runs the shader once on the CPU executor, as ``d3dbc run``: a pixel shader
        on one pixel quad, a vertex shader on one vertex. ``inputs``: register →
        1-4 values (``{"t0": (0.5, 0.5)}``; missing components (0, 0, 0, 1)); unset
        inputs read the scene ``render`` draws at its top-left pixel.
        ``constants``: ``{"c0": (1, 0, 0, 1), "i0": (3, 0, 1, 0), "b0": True}`` over
        the constant table's defaults. Returns the outputs (``oC0``, ``oPos``…)."""
        req = {
            "inputs": {str(k): [float(x) for x in _values(str(k), v)] for k, v in (inputs or {}).items()},
            "constants": _constants(constants),
            "trace": trace,
            "validate": validate,
        }
        return Outputs(json.loads(self._n.run(json.dumps(req))))

    def render(
        self,
        width: int = 256,
        height: int = 256,
        *,
        constants: Optional[Mapping[str, Values]] = None,
        vs: "Optional[Shader]" = None,
        textures: Optional[Mapping[Union[int, str], Any]] = None,
        validate: bool = True,
    ) -> Any:
        """Draws the pixel shader full-screen on the CPU executor, the picture ``d3dbc
        render`` writes: texture coordinates (u, v, 0, 1) across the image, colours
        white, checkerboards in samplers without a texture, constants from the table's
        defaults (1 where it gives none), then ``constants`` (both stages). ``vs``: a
        vertex shader to draw through; ``textures``: stage → (height, width, 4) uint8
        array. Returns a numpy ``uint8`` array of shape (height, width, 4), RGBA."""
        import numpy

        req = {"width": width, "height": height, "constants": _constants(constants), "validate": validate}
        w, h, rgba = self._n.render(json.dumps(req), None if vs is None else vs._n, _textures(textures))
        return numpy.frombuffer(rgba, dtype=numpy.uint8).reshape(h, w, 4)


def assemble(
    text: str,
    defines: Optional[Mapping[str, Optional[str]]] = None,
    include_dirs: Iterable[PathLike] = (),
    *,
    validate: bool = True,
    raw: bool = False,
    file_name: str = "input",
) -> Shader:
    """Assembles Microsoft-format assembly as ``d3dbc asm`` does: preprocessor
    (``defines`` as ``-D``, ``include_dirs`` as ``-I``), Microsoft's exact bytes, the
    runtime validator (``validate=False``: ``--no-validate``; ``raw=True``: ``--raw``),
    and the constant table rebuilt from the listing's header comment. Raises
    :class:`AsmError` with ``code``, ``line``, ``column`` and ``message`` of the first
    error (``diagnostics``: all of them, as the compiler prints them)."""
    if not isinstance(text, str):
        raise TypeError(f"expected str, got {type(text).__name__}")
    req = {
        "defines": {str(k): (None if v is None else str(v)) for k, v in (defines or {}).items()},
        "include_dirs": [os.fspath(d) for d in include_dirs],
        "no_validate": not validate,
        "raw": raw,
        "file_name": file_name,
    }
    native, warnings = _native.assemble(text, json.dumps(req))
    return Shader(native, warnings)


class Effect:
    """An fx_2_0 effect (``.fxo``, XNA/FNA ``.fxb``; ``.xnb`` holding one): its
    techniques and parameters, parameter values set by name, and the shaders a pass
    binds, with the constants the pass computes for them."""

    __slots__ = ("_n",)

    def __init__(self, native: "_native.Effect") -> None:
        self._n = native

    @classmethod
    def from_bytes(cls, data: BytesLike) -> "Effect":
        """Reads an effect; raises :class:`EffectError` with the byte ``offset``."""
        return cls(_native.Effect.from_bytes(_bytes(data)))

    @classmethod
    def from_file(cls, path: PathLike) -> "Effect":
        """:meth:`from_bytes` of a file's contents."""
        with open(path, "rb") as f:
            return cls.from_bytes(f.read())

    def to_bytes(self) -> bytes:
        """The effect's bytes."""
        return self._n.to_bytes()

    def disassemble(self) -> str:
        """The listing ``d3dbc dis`` prints for the effect (fxc ``/Fc``'s)."""
        return self._n.disassemble()

    @property
    def techniques(self) -> List[Technique]:
        """The techniques with their passes."""
        out = []
        for t in json.loads(self._n.techniques_json()):
            passes = tuple(Pass(p["name"], _annotations(p["annotations"]), tuple(p["states"])) for p in t["passes"])
            out.append(Technique(t["name"], passes, _annotations(t["annotations"])))
        return out

    @property
    def parameters(self) -> List[Parameter]:
        """The parameters, ``value`` being the value set or the default."""
        return [
            Parameter(
                p["name"],
                p["type"],
                p["semantic"],
                _annotations(p["annotations"]),
                p["value"],
                p["class"],
                p["rows"],
                p["columns"],
                p["elements"],
            )
            for p in json.loads(self._n.parameters_json())
        ]

    def set(self, name: str, value: Any) -> None:
        """Sets parameter ``name`` (``name[i]``, ``name.member`` too): a number, a
        sequence, or nested sequences (a matrix's rows, an array's elements), flattened
        row-major; as many numbers as the parameter holds."""
        flat: List[float] = []

        def walk(v: Any) -> None:
            if isinstance(v, (bool, int, float)):
                flat.append(float(v))
                return
            tolist = getattr(v, "tolist", None)
            if tolist is not None:
                v = tolist()
                if isinstance(v, (bool, int, float)):
                    flat.append(float(v))
                    return
            try:
                items = list(v)
            except TypeError:
                raise ArgumentError(f"parameter {name}: expected numbers, got {type(v).__name__}") from None
            for x in items:
                walk(x)

        walk(value)
        self._n.set(name, flat)

    def pass_shaders(self, technique: Union[int, str] = 0, pass_: Union[int, str] = 0) -> "Tuple[Optional[Shader], Optional[Shader]]":
        """The (vertex, pixel) shaders pass ``pass_`` of ``technique`` binds (index or
        name; ``None`` where the pass sets none), each carrying the constants the pass
        gives it with the values set (preshaders evaluated), which its ``run`` and
        ``render`` start from. Raises :class:`EffectError`."""
        vs, ps = self._n.pass_shaders(technique, pass_)
        return (None if vs is None else Shader(vs), None if ps is None else Shader(ps))


def rip(data: BytesLike) -> List[Find]:
    """Every shader and effect inside ``data`` (any file: an archive, a memory dump,
    an executable), as ``d3dbc rip`` finds them."""
    return [Find(f["offset"], f["size"], f["kind"], f["version"], f["crc32"]) for f in json.loads(_native.rip_json(_bytes(data)))]
