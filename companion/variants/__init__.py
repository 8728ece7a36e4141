"""Variant referees as plug-ins: each variant is one module with ``new_game``, ``apply`` and ``standings``.

A module registers here by name; ``companion.events.fold`` picks the module named by the
``variant`` field of the ``game_started`` event (``standard`` when absent).
"""

from __future__ import annotations

import importlib
from types import ModuleType

from companion.errors import RuleViolation

#: variant name -> module implementing it
REGISTRY = {
    "standard": "companion.game",
}


def get_variant(name: str) -> ModuleType:
    try:
        return importlib.import_module(REGISTRY[name])
    except KeyError:
        raise RuleViolation(f"unknown game variant {name!r}: choose one of {', '.join(REGISTRY)}") from None
