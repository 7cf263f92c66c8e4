"""The exceptions d3dbc raises. Every one is a :class:`D3dbcError` carrying the message
(what, where and why, as the ``d3dbc`` command says it) and the fields its kind has."""

import json
from typing import List, Optional, Sequence

from ._types import Finding


class D3dbcError(Exception):
    """Base of every d3dbc error.

    ``message``: the whole message; ``code``: the rule's or diagnostic's code
    (``E0204``) or ``None``; ``line``/``column``: 1-based position in assembly text
    (``AsmError``); ``offset``: DWORD offset in the token stream (byte offset in an
    effect); ``diagnostics``: every assembler diagnostic as the compiler prints it
    (source line and caret included); ``findings``: the validator's findings
    (``ValidationError``)."""

    def __init__(
        self,
        message: str,
        *,
        code: Optional[str] = None,
        line: Optional[int] = None,
        column: Optional[int] = None,
        offset: Optional[int] = None,
        diagnostics: Sequence[str] = (),
        findings: Sequence[Finding] = (),
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.line = line
        self.column = column
        self.offset = offset
        self.diagnostics: List[str] = list(diagnostics)
        self.findings: List[Finding] = list(findings)


class DecodeError(D3dbcError):
    """The bytes hold no shader, or the shader does not decode (``offset``: where)."""


class AsmError(D3dbcError):
    """Assembly failed: ``code``, ``line``, ``column``, ``message`` of the first error;
    ``diagnostics`` lists them all."""


class ValidationError(D3dbcError):
    """The runtime validator rejects the shader (``findings``); ``translate``, ``run``
    and ``render`` refuse it unless called with ``validate=False``."""


class TranslateError(D3dbcError):
    """A back end could not translate the shader."""


class RunError(D3dbcError):
    """The CPU executor could not run or draw the shader."""


class EffectError(D3dbcError):
    """The effect is malformed (``offset``: byte), or names no such technique, pass or
    parameter."""


class ArgumentError(D3dbcError, ValueError):
    """An argument is malformed or out of range (a register the shader's version lacks,
    a picture size, a value count)."""


_CLASSES = {
    c.__name__: c
    for c in (DecodeError, AsmError, ValidationError, TranslateError, RunError, EffectError, ArgumentError)
}


def from_native(text: str) -> D3dbcError:
    """The exception for the native module's error JSON."""
    d = json.loads(text)
    cls = _CLASSES.get(d.get("kind"), D3dbcError)
    return cls(
        d.get("message", ""),
        code=d.get("code"),
        line=d.get("line"),
        column=d.get("column"),
        offset=d.get("offset"),
        diagnostics=d.get("diagnostics", ()),
        findings=[Finding._of(f) for f in d.get("findings", ())],
    )
