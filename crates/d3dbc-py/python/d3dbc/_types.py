"""The values the d3dbc API returns: plain named tuples built from the JSON the native
module writes (the shapes of ``d3dbc dis --format json`` and ``validate --format json``)."""

from dataclasses import dataclass
from typing import Any, Dict, List, NamedTuple, Optional, Tuple, Union

Vec4 = Tuple[float, float, float, float]


class Finding(NamedTuple):
    """One validator finding: the rule's ``code`` (``E0204``), the ``message``, the
    instruction's DWORD ``offset``, ``severity`` (``error``/``warning``), the
    ``instruction`` as ``dis`` prints it, and ``location`` (``file:line:col`` for text
    input, else ``None``)."""

    code: str
    message: str
    offset: int
    severity: str
    instruction: str
    location: Optional[str]

    @classmethod
    def _of(cls, d: Dict[str, Any]) -> "Finding":
        return cls(d["code"], d["message"], d["offset"], d["severity"], d["instruction"], d.get("location"))


class ConstantType(NamedTuple):
    """A constant's type: ``class_`` (``scalar``, ``vector``, ``matrix_rows``,
    ``matrix_columns``, ``object``, ``struct``), ``rows``, ``columns``, ``elements``,
    ``name`` (the HLSL base type: ``float``, ``int``, ``bool``, ``sampler2D``…) and the
    ``members`` of structs as (name, type) pairs."""

    class_: str
    rows: int
    columns: int
    elements: int
    name: str
    members: Tuple[Tuple[str, "ConstantType"], ...]

    @classmethod
    def _of(cls, d: Dict[str, Any]) -> "ConstantType":
        members = tuple((m["name"], cls._of(m["type"])) for m in d.get("members", ()))
        return cls(d["class"], d["rows"], d["columns"], d["elements"], d["type"], members)


@dataclass(frozen=True)
class Constant:
    """One entry of the constant table (``CTAB``): ``name``, ``register_set``
    (``float4``, ``int4``, ``bool``, ``sampler``), first ``register`` number, ``count``
    of registers, ``type``, ``default`` value (floats for float4 constants, ints
    otherwise; ``None`` when the table gives none) and ``register_name`` as ``dis``
    prints it (``c4``, ``s0``)."""

    name: str
    register_set: Union[str, int]
    register: int
    count: int
    type: ConstantType
    default: Optional[List[float]]
    register_name: str

    @classmethod
    def _of(cls, d: Dict[str, Any]) -> "Constant":
        return cls(
            d["name"],
            d["register_set"],
            d["register_index"],
            d["register_count"],
            ConstantType._of(d["type"]),
            d["default_value"],
            d["register"],
        )


@dataclass(frozen=True)
class Operand:
    """One operand: ``text`` as ``dis`` prints it, ``register`` (``r0``, ``c4``,
    ``oC0``), its ``index``, ``relative`` address (``a0.x``, ``aL``, or ``None``),
    ``mask`` (destinations) or ``swizzle`` (sources), source ``modifier`` (``neg``,
    ``abs``, ``bx2``…), and the destination's ``saturate``, ``partial_precision``,
    ``centroid`` and ``shift``."""

    text: str
    register: str
    index: int
    relative: Optional[str]
    mask: Optional[str] = None
    swizzle: Optional[str] = None
    modifier: Optional[str] = None
    saturate: bool = False
    partial_precision: bool = False
    centroid: bool = False
    shift: int = 0

    @classmethod
    def _of(cls, d: Optional[Dict[str, Any]]) -> "Optional[Operand]":
        if d is None:
            return None
        return cls(
            d["text"],
            d["register"],
            d["index"],
            d["relative"],
            d.get("mask"),
            d.get("swizzle"),
            d.get("modifier"),
            d.get("saturate", False),
            d.get("partial_precision", False),
            d.get("centroid", False),
            d.get("shift", 0),
        )


class Instruction(NamedTuple):
    """One instruction: DWORD ``offset``, ``opcode`` (``mov``, ``texld``…),
    ``mnemonic`` with its suffixes (``mov_sat``, ``texldp``), ``text`` as ``dis``
    prints it, raw ``tokens``, ``dst`` and ``srcs`` operands, ``predicate``, ``dcl``
    (``usage``/``usage_index`` or ``sampler_type``), ``values`` of a ``def``,
    ``comparison`` (``gt``, ``lt``… of ``if_``/``break_``/``setp_``) and
    ``coissue``."""

    offset: int
    opcode: str
    mnemonic: str
    text: str
    tokens: Tuple[int, ...]
    dst: Optional[Operand]
    srcs: Tuple[Operand, ...]
    predicate: Optional[Operand]
    dcl: Optional[Dict[str, Any]]
    values: Optional[List[Union[float, int, bool]]]
    comparison: Optional[str]
    coissue: bool

    @classmethod
    def _of(cls, d: Dict[str, Any]) -> "Instruction":
        return cls(
            d["offset"],
            d["opcode"],
            d["mnemonic"],
            d["text"],
            tuple(int(t, 16) for t in d["tokens"]),
            Operand._of(d.get("dst")),
            tuple(Operand._of(s) for s in d.get("srcs", ())),  # type: ignore[misc]
            Operand._of(d.get("predicate")),
            d.get("dcl"),
            d.get("values"),
            d.get("comparison"),
            d.get("coissue", False),
        )


class Find(NamedTuple):
    """A shader or effect found by :func:`d3dbc.rip`: byte ``offset``, ``size`` in
    bytes, ``kind`` (``vso``, ``pso``, ``fxo``), ``version`` (``ps_3_0``, ``fx_2_0``)
    and ``crc32`` (what HelixMod and ReShade dumps are keyed by)."""

    offset: int
    size: int
    kind: str
    version: str
    crc32: int


class Pass(NamedTuple):
    """A pass of a technique: ``name``, ``annotations`` (name → value) and the names of
    the ``states`` it sets, in order."""

    name: str
    annotations: Dict[str, Any]
    states: Tuple[str, ...]


class Technique(NamedTuple):
    """A technique: ``name``, ``passes``, ``annotations``."""

    name: str
    passes: Tuple[Pass, ...]
    annotations: Dict[str, Any]


class Parameter(NamedTuple):
    """An effect parameter: ``name``, HLSL base ``type`` (``float``, ``texture``…),
    ``semantic``, ``annotations`` (name → value), ``value`` (the numbers set or the
    default, flattened row-major; a string's text; ``None`` for objects), ``class_``,
    ``rows``, ``columns``, ``elements``."""

    name: str
    type: str
    semantic: str
    annotations: Dict[str, Any]
    value: Any
    class_: str
    rows: int
    columns: int
    elements: int


def annotations(items: List[Dict[str, Any]]) -> Dict[str, Any]:
    return {a["name"]: a["value"] for a in items}


class Outputs(Dict[str, Vec4]):
    """What :meth:`d3dbc.Shader.run` gives, as ``d3dbc run`` prints it: output register
    → (x, y, z, w) in the shader's order, plus ``killed`` (pixel shaders: whether the
    pixel was discarded; ``None`` for vertex shaders) and, with ``trace=True``, the
    ``trace``: (instruction as ``dis`` prints it, value written or ``None``) per
    executed instruction (``trace_truncated`` after 65,536 steps)."""

    killed: Optional[bool]
    trace: List[Tuple[str, Optional[Vec4]]]
    trace_truncated: bool

    def __init__(self, d: Dict[str, Any]) -> None:
        super().__init__((name, tuple(d["outputs"][name])) for name in d["order"])
        self.killed = d["killed"]
        self.trace = [(t["instruction"], None if t["value"] is None else tuple(t["value"])) for t in d["trace"]]
        self.trace_truncated = d["trace_truncated"]
