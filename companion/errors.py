"""Errors the referee reports to the table: each message names what is wrong and where."""


class CompanionError(Exception):
    """Base of every error the referee shows to players instead of a traceback."""


class IllegalPlay(CompanionError):
    """Tiles placed on the board break a placement rule; the message names the squares."""


class UnknownLetter(CompanionError):
    """A letter that the game's tile set does not have."""


class RuleViolation(CompanionError):
    """An event that the rules do not allow at this point of the game (the game is left as it was)."""
