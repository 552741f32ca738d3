"""Cython's pure-Python names for a machine without Cython: the solver's core runs as plain
Python with them, and mypy reads the core's C types through them.

``dd/core.py`` is the one source of the solver's core: the build compiles it with Cython
where it can (setup.py); where Cython is not installed the core imports this module in its
place, and mypy always does (Cython's own ``cython`` module has no types). Run as Python,
each name changes nothing, as Cython's shadow module does: a C type is a name, a decorator
returns its function, ``declare`` and ``cast`` return the value.

>>> @cclass
... class Pair:
...     @cfunc
...     @locals(a=int, b=longlong)
...     @returns(int)
...     def add(self, a: int, b: int) -> int:
...         return cast(int, a + b)
>>> Pair().add(2, 3), compiled, declare(ulonglong[4]) is None
(5, False, True)
"""

from __future__ import annotations

import builtins
from collections.abc import Callable, MutableSequence
from typing import Any, Generic, TypeVar, overload

F = TypeVar("F", bound=Callable[..., Any])
C = TypeVar("C", bound=type)
T = TypeVar("T")
V = TypeVar("V")

compiled = False  # the compiled core has cython.compiled True


class _CType(Generic[T]):
    """A C type's name: indexable (``ulonglong[4]``, ``int[:]``) like Cython's; to mypy,
    the Python type its values take."""

    def __getitem__(self, item: object) -> _CType[MutableSequence[T]]:
        return _CType()


bint: _CType[builtins.bool] = _CType()
char: _CType[builtins.int] = _CType()
schar: _CType[builtins.int] = _CType()
uchar: _CType[builtins.int] = _CType()
short: _CType[builtins.int] = _CType()
int: _CType[builtins.int] = _CType()  # Cython's name, shadowing the builtin
uint: _CType[builtins.int] = _CType()
long: _CType[builtins.int] = _CType()
ulong: _CType[builtins.int] = _CType()
longlong: _CType[builtins.int] = _CType()
ulonglong: _CType[builtins.int] = _CType()
Py_ssize_t: _CType[builtins.int] = _CType()
size_t: _CType[builtins.int] = _CType()
double: _CType[builtins.float] = _CType()
float: _CType[builtins.float] = _CType()  # Cython's name, shadowing the builtin


@overload
def declare(kind: _CType[T], value: Any = None, visibility: str = "") -> T: ...
@overload
def declare(kind: type[T], value: Any = None, visibility: str = "") -> T: ...
def declare(kind: object, value: Any = None, visibility: str = "") -> Any:
    """A C variable (or an extension type's attribute) when compiled; pure, its
    ``value``: None for an attribute declared without one (``__init__`` sets it)."""
    return value


def cast(kind: object, value: V, *, typecheck: builtins.bool = False) -> V:
    """A C cast when compiled; the value itself pure."""
    return value


def _same(function: F) -> F:
    return function


# Function kinds: C-only, C-and-Python, inlined, not overridable.
cfunc = ccall = inline = final = _same


def cclass(cls: C) -> C:
    """An extension type when compiled; the same class pure."""
    return cls


def locals(**kinds: object) -> Callable[[F], F]:  # Cython's name, shadowing the builtin
    """The C types of a function's locals when compiled."""
    return _same


def returns(kind: object) -> Callable[[F], F]:
    """A C function's return type when compiled."""
    return _same


def exceptval(value: object = None, *, check: builtins.bool = True) -> Callable[[F], F]:
    """How a C function reports an exception when compiled."""
    return _same


def boundscheck(flag: builtins.bool) -> Callable[[F], F]:
    """Compiler directive (index bounds checks) as a decorator."""
    return _same


wraparound = cdivision = boundscheck
