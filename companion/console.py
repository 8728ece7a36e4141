"""A typed stand-in for the camera: enter a game's turns at a prompt.

The app reads turns from the camera; this console lets a table (or a test) give the same events
by typing them. Every line becomes one event through ``Referee.submit``, so the rules, the saving
and the error messages are the same as with the camera.
"""

from __future__ import annotations

import shlex
from typing import Callable, TextIO

from companion.errors import CompanionError
from companion.referee import Referee
from companion.scoresheet import format_board, format_scoresheet, format_standings, format_status, format_turn

HELP = """commands (the player to move is implied):
  play POSITION WORD [RACK]   e.g. play 8D CRAaLED  (row first = across, column first = down;
                              lower case = blank; '.' or the letter for tiles already on the board)
  pass                        pass the turn
  exchange N                  put N tiles back in the bag and draw N
  challenge NAME              NAME challenges the last play; the referee judges every word
  check WORD...               look words up in the game's word list
  end NAME=LETTERS ...        the tiles left on the racks when the game has ended (NAME= for none)
  found POSITION WORD ... [NAME=SCORE ...] [to NAME]
                              a game joined mid-way, before the first turn: the words on the board
                              as found, the scores so far, whose turn it is
                              e.g. found 8G CAT G8 COT Ann=10 Ben=6 to Ben
  fix SQUARE LETTER           put a tile right in the play that laid it: fix H8 Q (q: a blank standing
                              for Q, ?: a blank not named, .: no tile there); later turns scored again
  undo                        take back the last event
  board | sheet | unseen | status | help | quit"""


def run_console(referee: Referee, stdin: TextIO, stdout: TextIO, prompt: Callable[[str], None] | None = None) -> int:
    """Read commands until ``quit`` or end of input; returns an exit status (0)."""

    def say(text: str = "") -> None:
        stdout.write(text + "\n")
        stdout.flush()

    say(format_status(referee.state))
    while True:
        state = referee.state
        if prompt:
            prompt(f"{state.players[state.to_move]}> " if state.phase == "playing" else "> ")
        line = stdin.readline()
        if not line:
            return 0
        try:
            words = shlex.split(line)
        except ValueError as exc:
            say(f"error: {exc}")
            continue
        if not words:
            continue
        cmd, args = words[0].lower(), words[1:]
        if cmd in ("quit", "exit", "q"):
            return 0
        try:
            run_command(referee, cmd, args, say)
        except CompanionError as exc:
            say(f"refused: {exc}")


def run_command(referee: Referee, cmd: str, args: list[str], say: Callable[[str], None]) -> None:
    """One typed command (``cmd``, lower case, and its ``args``) on ``referee``'s game, what it did
    told through ``say``; raises CompanionError for a line that breaks a rule or means nothing
    (the game is then as it was).  The prompt runs it, and so does ``watch`` for what the players
    type while the camera watches."""
    state = referee.state
    before = len(state.turns)
    mover = state.players[state.to_move]
    if cmd == "help":
        say(HELP)
        return
    if cmd == "board":
        say(format_board(state))
        return
    if cmd in ("sheet", "score", "scores"):
        say(format_scoresheet(state))
        return
    if cmd == "status":
        say(format_status(state))
        return
    if cmd == "unseen":
        unseen = state.unseen(state.to_move)
        say(f"unseen by {mover} ({sum(unseen.values())} tiles: the bag and the other racks): "
            + " ".join(f"{k}{'x' + str(v) if v > 1 else ''}" for k, v in sorted(unseen.items())))
        return
    if cmd == "check":
        for word in args:
            say(f"{word.upper()}: {'VALID' if word in referee.lexicon else 'INVALID'}")
        return
    if cmd == "play":
        if len(args) not in (2, 3):
            raise CompanionError("write: play POSITION WORD [RACK], e.g. play 8D CRAaLED")
        referee.play_notation(mover, args[0], args[1], args[2] if len(args) == 3 else None)
    elif cmd == "pass":
        referee.submit({"type": "pass", "player": mover})
    elif cmd == "exchange":
        if len(args) != 1 or not args[0].isdigit():
            raise CompanionError("write: exchange N (how many tiles go back)")
        referee.submit({"type": "exchange", "player": mover, "count": int(args[0])})
    elif cmd == "challenge":
        if len(args) != 1:
            raise CompanionError("write: challenge NAME (the player who challenges)")
        referee.submit({"type": "challenge", "challenger": args[0]})
        say(referee.events[-1].get("ruling", ""))
    elif cmd == "end":
        racks = {}
        for item in args:
            name, _, letters = item.partition("=")
            racks[name] = letters
        referee.submit({"type": "end_racks", "racks": racks})
    elif cmd == "fix":
        if len(args) != 2:
            raise CompanionError("write: fix SQUARE LETTER, e.g. fix H8 Q (q: a blank standing for Q, ?: a blank, . no tile)")
        before = referee.correct_tile(args[0], args[1])      # the turns scored again, shown below
    elif cmd == "found":
        _found(referee, args)
    elif cmd == "undo":
        referee.undo()
        say("undone")
        say(format_status(referee.state))
        return
    else:
        raise CompanionError(f"unknown command {cmd!r}: type help for the list")
    state = referee.state
    for i in range(before, len(state.turns)):
        say(format_turn(state, i))
    if state.phase == "ended":
        say(format_standings(state))
    else:
        say(format_status(state))


def _found(referee: Referee, args: list[str]) -> None:
    """``found 8G CAT G8 COT Ann=10 Ben=6 to Ben``: the board as found (``Referee.position_notation``)."""
    usage = "write: found POSITION WORD ... [NAME=SCORE ...] [to NAME], e.g. found 8G CAT G8 COT Ann=10 Ben=6 to Ben"
    to_move = None
    if len(args) >= 2 and args[-2].lower() == "to":
        to_move, args = args[-1], args[:-2]
    scores, words = {}, []
    for item in args:
        name, eq, points = item.partition("=")
        if eq:
            if not points.lstrip("-").isdigit():
                raise CompanionError(f"{item}: a score so far is a whole number, like {name}=120")
            scores[name] = int(points)
        else:
            words.append(item)
    if not words or len(words) % 2:
        raise CompanionError(usage)
    referee.position_notation(list(zip(words[::2], words[1::2])), scores, to_move)
