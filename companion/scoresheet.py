"""Text views of a standard game: the scoresheet, the board, the final standings."""

from __future__ import annotations

from companion.board import COLUMNS
from companion.game import ENDED, GameState


def format_turn(state: GameState, index: int) -> str:
    t = state.turns[index]
    sign = f"{t.score:+d}" if t.kind != "play" else f"{t.score:d}"
    return f"{index + 1:>3}  {state.players[t.player]:<12} {t.description:<44} {sign:>5} {t.total:>5}"


def format_scoresheet(state: GameState) -> str:
    """Every turn with its score and the player's running total, then the standings."""
    lines = [f"{'#':>3}  {'player':<12} {'move':<44} {'score':>5} {'total':>5}"]
    lines += [format_turn(state, i) for i in range(len(state.turns))]
    lines.append("")
    lines.append(format_standings(state))
    return "\n".join(lines)


def format_standings(state: GameState) -> str:
    title = "final standings" if state.phase == ENDED else "standings so far"
    lines = [f"{title}:"]
    previous, place = None, 0
    for n, (name, score) in enumerate(state.standings(), start=1):
        if score != previous:
            place, previous = n, score
        lines.append(f"  {place}. {name:<12} {score:>5}")
    if state.phase == ENDED:
        winners = state.winners
        lines.append("winner: " + " and ".join(winners) + (" (tie)" if len(winners) > 1 else ""))
    return "\n".join(lines)


def format_board(state: GameState) -> str:
    """The board as text: letters, blanks in lower case, premium squares marked where empty."""
    layout = state.config.board_layout
    size = state.board.size
    head = "    " + " ".join(COLUMNS[:size])
    lines = [head]
    for r in range(size):
        cells = []
        for c in range(size):
            tile = state.board[r, c]
            cells.append(str(tile) if tile else {"T": "=", "D": "-", "t": '"', "d": "'", "*": "*"}.get(layout.rows[r][c], "."))
        lines.append(f"{r + 1:>3} " + " ".join(cells))
    lines.append("    = triple word  - double word  \" triple letter  ' double letter  * centre; lower case: a blank")
    return "\n".join(lines)


def format_status(state: GameState) -> str:
    if state.phase == ENDED:
        return "the game is over"
    if state.phase != "playing":
        return "the game has ended: show the tiles left on the racks (end NAME=LETTERS ...)"
    return f"{state.players[state.to_move]} to move; {state.bag} tiles in the bag"
