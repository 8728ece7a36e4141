"""Errors raised by the vision package: one class, with a message written for the player."""

from __future__ import annotations


class VisionError(Exception):
    """The picture cannot be read (unreadable file, no board, too dark, blurred...).

    ``str(error)`` is a complete sentence for a non-programmer; the CLI prints it after
    ``ERROR:`` instead of a traceback. ``reason`` is a short machine-readable code
    ("unreadable", "dark", "blurred", "smeared", "out-of-focus", "no-board", "bad-input",
    "no-model", ...): "blurred" a picture without sharp edges, "smeared" one a shaken camera
    smeared one way, "out-of-focus" one whose edges are all too wide.
    """

    def __init__(self, message: str, reason: str = "bad-input"):
        super().__init__(message)
        self.reason = reason
