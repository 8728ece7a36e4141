"""The ``companion`` command: demo, games, word lists, game records and the referee.

Every error a player can cause (a bad file, an illegal move, a locked saved-games file) is printed
as one plain sentence naming what is wrong, with exit status 2; never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from importlib import resources
from pathlib import Path

from companion.errors import CompanionError
from vision.errors import VisionError

EXIT_ERROR = 2


def default_db_path() -> Path:
    from companion.lexicon import data_dir

    return data_dir() / "games.db"


def _open_store(args):
    from companion.store import GameStore

    return GameStore(Path(args.db).expanduser() if args.db else default_db_path())


def _load_lexicon(spec: str | None):
    from companion.referee import load_lexicon

    return load_lexicon(spec or "default")


# ----------------------------------------------------------------------------- commands
def cmd_demo(args) -> int:
    """Play the bundled scripted game through the engine and print its scoresheet."""
    from companion.events import read_jsonl
    from companion.referee import Referee
    from companion.scoresheet import format_board, format_scoresheet

    path = Path(str(resources.files("companion") / "data" / "demo" / "standard.jsonl"))
    events = read_jsonl(path)
    referee = Referee(events[:1], lexicon=_load_lexicon(None))
    print(f"Table Companion demo: a scripted game of standard Scrabble ({', '.join(events[0]['players'])}),")
    print(f"challenge rule '{events[0]['challenge_rule']}', default word list ({len(referee.lexicon):,} words).\n")
    for event in events[1:]:
        if event.get("type") == "challenge":
            # Judge afresh with the word list, as at the table, rather than trusting the file.
            event = {k: v for k, v in event.items() if k not in ("verdict", "invalid_words", "ruling")}
        referee.submit(event)
        if event.get("type") == "challenge":
            print(f"  challenge by {event['challenger']}: {referee.events[-1]['ruling']}")
    print(format_board(referee.state))
    print()
    print(format_scoresheet(referee.state))
    return 0


def cmd_lexicon_check(args) -> int:
    lexicon = _load_lexicon(args.lexicon)
    bad = 0
    for word in args.words:
        ok = word in lexicon
        bad += not ok
        print(f"{word.upper()}\t{'VALID' if ok else 'INVALID'}")
    return 0 if not bad else 1


def cmd_lexicon_info(args) -> int:
    lexicon = _load_lexicon(args.lexicon)
    print(f"{lexicon.name}: {len(lexicon):,} words from {lexicon.source}")
    for junk in lexicon.junk[:20]:
        print(f"  skipped {junk}")
    if len(lexicon.junk) > 20:
        print(f"  ... and {len(lexicon.junk) - 20} more skipped lines")
    return 0


def cmd_game_list(args) -> int:
    with _open_store(args) as store:
        games = store.list_games()
        if not games:
            print("no saved games yet")
        for g in games:
            print(f"{g.id:>4}  {g.name:<30} {g.variant:<10} {g.event_count:>4} events  last change {g.updated}")
    return 0


def _referee_for(store, game_id: int, lexicon_spec: str | None = None):
    from companion.referee import Referee

    lexicon = _load_lexicon(lexicon_spec) if lexicon_spec else None
    return Referee.resume(store, game_id, lexicon)


def cmd_game_new(args) -> int:
    from companion.console import run_console
    from companion.referee import Referee

    players = [p.strip() for p in args.players.split(",") if p.strip()]
    start = {"players": players, "tileset": args.tileset, "challenge_rule": args.challenge, "lexicon": args.lexicon or "default"}
    lexicon = _load_lexicon(args.lexicon)
    with _open_store(args) as store:
        referee = Referee.start(start, lexicon, store, args.name)
        print(f"game {referee.game_id} saved in {store.path if hasattr(store, 'path') else 'the saved-games file'}; type help for commands")
        return run_console(referee, sys.stdin, sys.stdout, _prompt)


def cmd_game_resume(args) -> int:
    from companion.console import run_console
    from companion.scoresheet import format_scoresheet

    with _open_store(args) as store:
        referee = _referee_for(store, args.game_id, args.lexicon)
        variant = referee.events[0].get("variant", "standard")
        if variant != "standard":
            raise CompanionError(f"game {args.game_id} is a {variant} game: the typed prompt is for standard Scrabble; "
                                 f"add its events with `companion referee --variant {variant} --db ... --game {args.game_id} MORE.jsonl`")
        print(format_scoresheet(referee.state))
        return run_console(referee, sys.stdin, sys.stdout, _prompt)


def cmd_game_show(args) -> int:
    from companion.scoresheet import format_board, format_scoresheet

    from companion.events import Replay

    with _open_store(args) as store:
        events = store.events(args.game_id)
    replay = Replay(events[0])
    if events[0].get("variant", "standard") == "standard":
        for event in events[1:]:
            replay.push(event)
        print(format_board(replay.state))
        print()
        print(format_scoresheet(replay.state))
        return 0
    for event in events[1:]:
        before = replay.state
        after = replay.push(event)
        for line in replay.variant.report(before, after, event):
            print(line)
    print()
    print(replay.variant.format_final(replay.state))
    return 0


def cmd_game_export(args) -> int:
    with _open_store(args) as store:
        events = store.events(args.game_id)
    if args.format == "gcg":
        from companion.gcg import events_to_gcg

        variant = events[0].get("variant", "standard")
        if variant != "standard":
            raise CompanionError(f"game {args.game_id} is a {variant} game: GCG records standard Scrabble only; use --format jsonl")
        text = events_to_gcg(events)
    else:
        text = "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in events)
    if args.out:
        _write_whole(Path(args.out), text)
        print(f"wrote {args.out}")
    else:
        sys.stdout.write(text)
    return 0


def _write_whole(path: Path, text: str) -> None:
    """Write via a temporary file and rename, so a crash never leaves half a file."""
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        raise CompanionError(f"cannot write {path}: {exc.strerror or exc}") from None


def cmd_gcg_verify(args) -> int:
    from companion.gcg import cli_verify

    return cli_verify(args.files)


def cmd_gcg_import(args) -> int:
    from companion.gcg import cli_import
    from companion.referee import Referee

    events = cli_import(args.file)
    Referee(events)  # the whole record must replay before anything is saved
    with _open_store(args) as store:
        game_id = store.create_game(Path(args.file).stem, str(events[0].get("variant", "standard")), *events)
        print(f"imported {args.file} as game {game_id} ({len(events)} events)")
    return 0


def cmd_referee(args) -> int:
    """Drive a referee from a JSON-lines file of events, printing the outcome after each."""
    from companion.events import read_jsonl
    from companion.referee import Referee

    events = read_jsonl(args.script)
    if not events:
        raise CompanionError(f"{args.script} holds no events")
    numbered = list(enumerate(events, start=1))
    lexicon = _load_lexicon(args.lexicon) if args.lexicon else None
    store = _open_store(args) if (args.save or args.game) else None
    try:
        if args.game:
            referee = Referee.resume(store, args.game, lexicon)
            variant = referee.events[0].get("variant", "standard")
            if numbered[0][1].get("type") == "game_started":
                numbered = numbered[1:]  # the saved game has its own start
        else:
            first = dict(events[0])
            if first.get("type") != "game_started":
                raise CompanionError(f"{args.script} line 1: a game script must begin with a game_started event")
            first.setdefault("variant", args.variant or "standard")
            variant = first["variant"]
            numbered = numbered[1:]
            referee = Referee.start(first, lexicon, store, Path(args.script).stem) if store else Referee([first], lexicon=lexicon)
        if args.variant and variant != args.variant:
            raise CompanionError(f"{'game ' + str(args.game) if args.game else args.script} is a {variant} game, not {args.variant}")
        if store is not None:
            print(f"saving as game {referee.game_id}")
        return _run_script(referee, numbered)
    finally:
        if store is not None:
            store.close()


def _run_script(referee, numbered) -> int:
    variant = referee.replay.variant
    rejected = 0
    for n, event in numbered:
        before = referee.state
        try:
            after = referee.submit(event)
        except CompanionError as exc:
            rejected += 1
            print(f"event {n} ({event.get('type')}): REJECTED: {exc}")
            continue
        for line in variant.report(before, after, referee.events[-1]):
            print(line)
    print()
    print(variant.format_final(referee.state))
    return 0 if not rejected else 1


def cmd_vision_locate(args) -> int:
    from vision.locate_cli import locate_main

    return locate_main(args.images, sys.stdout, profile=args.board_profile, method=args.method)


def cmd_vision_corners(args) -> int:
    from vision.locate_cli import corners_main

    return corners_main(args.image, args.save, args.at, args.preview, sys.stdout)


def _letters(tileset: str) -> str:
    from companion.tiles import get_tileset

    return "".join(get_tileset(tileset).alphabet)


def _set_profile(path: str | None, tileset: str):
    """The tile-set profile at ``path`` for the ``tileset`` read (one for other letters refused)."""
    if not path:
        return None
    from companion.replay import load_set_profile
    from companion.tiles import get_tileset

    return load_set_profile(path, _letters(tileset), get_tileset(tileset).code)


def cmd_vision_read(args) -> int:
    from vision.read import read_main

    from companion.tiles import get_tileset

    return read_main(args.image, _letters(args.tileset), args.reference, sys.stdout,
                     profile=_set_profile(args.set_profile, args.tileset), confidences=args.confidences,
                     values=dict(get_tileset(args.tileset).values), board_profile=args.board_profile)


def cmd_vision_classify(args) -> int:
    from companion.tiles import get_tileset
    from vision.read import classify_main

    return classify_main(args.paths, _letters(args.tileset), sys.stdout, profile=_set_profile(args.set_profile, args.tileset),
                         abstain=args.abstain, values=dict(get_tileset(args.tileset).values), as_is=args.as_is,
                         note=sys.stderr)


def cmd_vision_calibrate(args) -> int:
    from calibration.set_profile import calibrate_main

    letters = args.letters or _letters(args.tileset)
    return calibrate_main(args.photo, letters, args.profile, sys.stdout, blanks=args.blanks,
                          board_profile=args.board_profile)


def _camera_game(args, play) -> int:
    """Run ``play(players, lexicon, store, game_id)`` (replay or watch) with the game saved as it
    goes, unless --no-save; where it is saved is told on stderr (stdout is the moves)."""
    players = [p.strip() for p in (args.players or "").split(",") if p.strip()]
    if args.no_save and args.game is not None:
        raise CompanionError("--game carries on a saved game: it cannot go with --no-save")
    lexicon = _load_lexicon(args.lexicon)
    if args.no_save:
        return play(players, lexicon, None, None)
    with _open_store(args) as store:
        if args.game is None and not players:
            raise CompanionError("name the players (--players Ann,Ben) or carry on a saved game (--game ID)")
        before = {g.id for g in store.list_games()}
        try:
            return play(players, lexicon, store, args.game)
        finally:        # said on Ctrl-C too: stopping a watch is when the players need it
            games = {g.id for g in store.list_games()}
            made = sorted(games - before)
            game_id = args.game if args.game is not None else (made[-1] if made else None)
            if game_id in games:            # not a --game that is not there
                print(f"game {game_id} saved in {store.path}: go on by hand with 'companion game resume {game_id}', "
                      f"or with the camera with --game {game_id}", file=sys.stderr)


def _mid_game(args, players: list[str]):
    """--mid-game, --scores and --to-move as a ``companion.replay.MidGame`` (None without --mid-game)."""
    from companion.replay import MidGame

    if not args.mid_game:
        if args.scores is not None or args.to_move is not None:
            raise CompanionError("--scores and --to-move are for a game joined mid-way: add --mid-game")
        return None
    scores = {}
    if args.scores is not None:
        values = [v.strip() for v in args.scores.split(",")]
        if len(values) != len(players) or not all(v.lstrip("-").isdigit() for v in values):
            raise CompanionError(f"--scores takes each player's points so far, whole numbers in the order of --players "
                                 f"({len(players)} of them, like --scores {','.join(['0'] * max(2, len(players)))}), "
                                 f"not {args.scores!r}")
        scores = dict(zip(players, (int(v) for v in values)))
    return MidGame(scores, args.to_move)


def cmd_replay(args) -> int:
    from companion.replay import replay_folder

    return _camera_game(args, lambda players, lexicon, store, game_id: replay_folder(
        args.folder, players, args.tileset, lexicon, args.reference, sys.stdout, board_profile=args.board_profile,
        set_profile=args.set_profile, store=store, game_id=game_id, repeat_photos=args.repeat_photos,
        mid_game=_mid_game(args, players)))


def cmd_watch(args) -> int:
    from companion.replay import watch

    from companion.replay import TYPED_HELP, TypedLines

    source = int(args.source) if args.source.isdigit() else args.source
    typed = None
    if sys.stdin is not None and sys.stdin.isatty():
        # the players type what the camera cannot see (passes, challenges) and answer its questions
        print(TYPED_HELP, file=sys.stderr)
        typed = TypedLines(sys.stdin)
    return _camera_game(args, lambda players, lexicon, store, game_id: watch(
        source, players, args.tileset, lexicon, args.reference, sys.stdout, frames=args.frames,
        board_profile=args.board_profile, set_profile=args.set_profile, store=store, game_id=game_id,
        mid_game=_mid_game(args, players), typed=typed))


def _prompt(text: str) -> None:
    if sys.stdin.isatty():
        sys.stdout.write(text)
        sys.stdout.flush()


# ----------------------------------------------------------------------------- parser
def camera_game_options(parser: argparse.ArgumentParser) -> None:
    """The options of a game scored from the camera (replay, watch)."""
    parser.add_argument("--players", help="comma-separated names in turn order (not needed with --game)")
    parser.add_argument("--game", type=int, metavar="GAME_ID", help="carry on this saved game (its players, tile set "
                        "and board; moves typed at 'companion game resume' count too)")
    parser.add_argument("--no-save", action="store_true", help="do not save the game (by default it is saved, "
                        "every move as it is taken, as 'game new' saves one)")
    parser.add_argument("--db", help="saved-games file (default: the usual one, see 'companion game list --help')")
    parser.add_argument("--tileset", default="en", help="en, de, da, fr, nl, pl (default en)")
    parser.add_argument("--reference", metavar="EMPTY_BOARD_IMAGE", help="a photo of the empty board")
    parser.add_argument("--lexicon", help="word-list file (default: the installed default list)")
    parser.add_argument("--board-profile", metavar="PROFILE_JSON", help="the board's corners set once for a camera "
                        "that stays put (companion vision corners): found where the automatic locator cannot")
    parser.add_argument("--set-profile", metavar="PROFILE_NPZ", help="your tile set, learnt from a photo of its "
                        "tile sheet (companion vision calibrate)")
    parser.add_argument("--mid-game", action="store_true", help="the game began before the camera was set up: the "
                        "first picture with tiles is the board as found, not a play (its words are not judged)")
    parser.add_argument("--scores", metavar="N,N", help="with --mid-game: each player's points so far, in the order "
                        "of --players (default 0 each)")
    parser.add_argument("--to-move", metavar="NAME", help="with --mid-game: whose turn it is (default the first player)")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="companion", description="Table Companion: the referee for a real game table.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    def db_option(sp):
        sp.add_argument("--db", help=f"saved-games file (default: {default_db_path()})")

    d = sub.add_parser("demo", help="play a bundled scripted game and print the scoresheet", description="Play a bundled scripted game of standard Scrabble through the referee and print the board and scoresheet.")
    d.set_defaults(func=cmd_demo)

    lx = sub.add_parser("lexicon", help="word lists: check words", description="Word lists (the challenge reference).")
    lxs = lx.add_subparsers(dest="lexicon_command", metavar="ACTION")
    lxs.required = True
    c = lxs.add_parser("check", help="print VALID or INVALID for each word", description="Print VALID or INVALID for each word (exit 1 if any is invalid).")
    c.add_argument("words", nargs="+", metavar="WORD")
    c.add_argument("--lexicon", help="word-list file (one word per line); default: the installed default list")
    c.set_defaults(func=cmd_lexicon_check)
    i = lxs.add_parser("info", help="size of a word list and its skipped lines", description="Show how many words a word list has and which lines were skipped as junk.")
    i.add_argument("--lexicon", help="word-list file; default: the installed default list")
    i.set_defaults(func=cmd_lexicon_info)

    g = sub.add_parser("game", help="saved games: new, list, resume, show, export", description="Saved games (every confirmed turn is saved at once).")
    gs = g.add_subparsers(dest="game_command", metavar="ACTION")
    gs.required = True
    n = gs.add_parser("new", help="start a game and enter its turns at a prompt", description="Start a standard game and enter turns at a prompt (type help there).")
    n.add_argument("--players", required=True, help="comma-separated names, 2 to 4")
    n.add_argument("--tileset", default="en", help="tile set: en, de, da, fr, nl, pl or a tile-set file (default en)")
    n.add_argument("--challenge", default="double", choices=["double", "single", "bonus5", "bonus10", "void"], help="challenge rule (default double, as the rule text)")
    n.add_argument("--lexicon", help="word-list file agreed for this game (default: the installed default list)")
    n.add_argument("--name", help="a name for the saved game")
    db_option(n)
    n.set_defaults(func=cmd_game_new)
    ls = gs.add_parser("list", help="list saved games", description="List the saved games.")
    db_option(ls)
    ls.set_defaults(func=cmd_game_list)
    for name, func, helptext in (("resume", cmd_game_resume, "continue a saved game at the prompt"), ("show", cmd_game_show, "print a saved game's board and scoresheet")):
        r = gs.add_parser(name, help=helptext, description=helptext[0].upper() + helptext[1:] + ".")
        r.add_argument("game_id", type=int, metavar="GAME_ID")
        if name == "resume":
            r.add_argument("--lexicon", help="word-list file (default: the one the game started with)")
        db_option(r)
        r.set_defaults(func=func)
    e = gs.add_parser("export", help="export a saved game as GCG or JSON lines", description="Export a saved game as a GCG record or as its JSON-lines event log.")
    e.add_argument("game_id", type=int, metavar="GAME_ID")
    e.add_argument("--format", choices=["gcg", "jsonl"], default="gcg", help="gcg (standard Scrabble only) or jsonl, the event log (default gcg)")
    e.add_argument("--out", help="file to write (default: print)")
    db_option(e)
    e.set_defaults(func=cmd_game_export)

    gc = sub.add_parser("gcg", help="GCG game records: verify, import", description="GCG game records (Poslfit spec v1.2).")
    gcs = gc.add_subparsers(dest="gcg_command", metavar="ACTION")
    gcs.required = True
    v = gcs.add_parser("verify", help="replay games and check every recorded score", description="Replay each game on the engine's board and check every recorded move score and running total.")
    v.add_argument("files", nargs="+", metavar="FILE")
    v.set_defaults(func=cmd_gcg_verify)
    im = gcs.add_parser("import", help="import a GCG file as a saved game", description="Import a GCG file as a saved game.")
    im.add_argument("file", metavar="FILE")
    db_option(im)
    im.set_defaults(func=cmd_gcg_import)

    vi = sub.add_parser("vision", help="read pictures of a board: locate, read, classify", description="What the camera sees: where the board is, what each square shows.")
    vis = vi.add_subparsers(dest="vision_command", metavar="ACTION")
    vis.required = True
    lo = vis.add_parser("locate", help="print the playing grid's corners in each picture", description="Print the outer corners of the 15x15 playing grid in each picture: path<TAB>[[x,y],[x,y],[x,y],[x,y]] (top-left, top-right, bottom-right, bottom-left), or path<TAB>ERROR reason.")
    lo.add_argument("images", nargs="+", metavar="IMAGE", help="pictures, or folders of pictures")
    lo.add_argument("--board-profile", help="a board profile (JSON) with the four corners set by hand once")
    lo.add_argument("--method", choices=["any", "auto", "markers", "profile"], default="any", help="how to find the grid (default: the profile if given, else automatic, then corner markers)")
    lo.set_defaults(func=cmd_vision_locate)
    co = vis.add_parser("corners", help="keep where the grid is, for a camera that stays put (a board profile)", description="Save a board profile: the playing grid's four corners in the pictures of a camera that stays put, for replay and watch (--board-profile). With --at, the corners given (read off an image viewer: the outer corners of the 15x15 grid, not the board's edge); without, the ones found automatically or from the corner markers. Then the board is found in every picture even where the automatic locator cannot (a black-and-white camera, a board without premium colours).")
    co.add_argument("image", metavar="IMAGE", help="a picture from the camera, where it will stay")
    co.add_argument("--save", required=True, metavar="PROFILE_JSON", help="file to write the board profile to")
    co.add_argument("--at", nargs="+", metavar="X,Y", help="the corners top-left, top-right, bottom-right, bottom-left as seen on screen, e.g. --at 412,188 1490,201 1502,1010 398,1022")
    co.add_argument("--preview", metavar="PNG", help="also write the grid as the profile straightens it, to check by eye")
    co.set_defaults(func=cmd_vision_corners)
    rd = vis.add_parser("read", help="print what each square of a board photo shows", description="Print 15 lines of 15 characters: '.' empty, the letter in upper case, '?' a blank tile, '#' covered or unreadable (never a guess).")
    rd.add_argument("image", metavar="IMAGE")
    rd.add_argument("--tileset", default="en", help="the tile set whose letters to read (en, de, da, ...; default en)")
    rd.add_argument("--reference", metavar="EMPTY_BOARD_IMAGE", help="a photo of the empty board taken when the game starts (reads better)")
    rd.add_argument("--set-profile", help="a tile-set calibration made with calibration/set_profile.py")
    rd.add_argument("--board-profile", metavar="PROFILE_JSON", help="the grid's corners kept for this camera "
                    "(companion vision corners), instead of finding them")
    rd.add_argument("--confidences", action="store_true", help="also print each square's confidence")
    rd.set_defaults(func=cmd_vision_read)
    cl = vis.add_parser("classify", help="classify tile crops", description="For tile crops (files, or folders searched recursively), print path<TAB>label<TAB>confidence; label is the most likely letter (the confidence says how likely), '?' a blank tile, '.' an empty square, '#' not a tile.")
    cl.add_argument("paths", nargs="+", metavar="PATH")
    cl.add_argument("--tileset", default="en", help="the tile set whose letters to read (default en)")
    cl.add_argument("--set-profile", help="a tile-set calibration made with calibration/set_profile.py")
    cl.add_argument("--abstain", action="store_true", help="print '#' for a letter the board reader would not show "
                    "(under 0.7 without a clear lead over the next letter) instead of the best letter")
    cl.add_argument("--as-is", action="store_true", help="read each crop as it is; by default, crops whose letters "
                    "all lie turned or mirrored alike (cut from a picture of a turned board, or a mirroring "
                    "camera's) are read turned back, and a note says so")
    cl.set_defaults(func=cmd_vision_classify)
    ca = vis.add_parser("calibrate", help="learn your own tile set from one photo of its tiles", description="Learn a tile set from one photo of its tiles laid out on the board as calibration/tile_sheet.md describes, or from a folder of pictures of single tiles named by their letters (A/1.png or A.png, B_2.png ...); saves a set profile for --set-profile.")
    ca.add_argument("photo", metavar="PHOTO|FOLDER")
    ca.add_argument("--profile", required=True, help="file to write the set profile to (e.g. my-set.npz)")
    ca.add_argument("--tileset", default="en", help="the tile set laid out (default en)")
    ca.add_argument("--letters", help="the letters in the order laid out (default: the tile set's alphabet)")
    ca.add_argument("--blanks", type=int, default=1, help="blank tiles laid after the last letter (default 1)")
    ca.add_argument("--board-profile", metavar="PROFILE_JSON", help="the grid's corners kept for this camera "
                    "(companion vision corners), instead of finding them")
    ca.set_defaults(func=cmd_vision_calibrate)

    rp = sub.add_parser("replay", help="score a game from photos, one per move", description="Score a game from a folder of photos, sorted by name, each taken after one move of a game that starts on an empty board (or, with --game, the next moves of a saved game; with --mid-game, a game already under way: the first photo with tiles is the board as found); players in turn. Prints each move (player, square, direction, words, score) and ends with 'totals: NAME=SCORE ...'. The game is saved as it goes (where, on stderr).")
    rp.add_argument("folder", metavar="FOLDER")
    camera_game_options(rp)
    rp.add_argument("--repeat-photos", action="store_true", help="several photos may be taken a move: a photo "
                    "with no new tile is the board photographed again, not a pass (passes and exchanges are not seen)")
    rp.set_defaults(func=cmd_replay)

    wa = sub.add_parser("watch", help="score moves from a video or a live camera", description="Watch a video file or a live camera (a number, e.g. 0; 'picamera' on a Raspberry Pi): a move is taken once the picture is still and every square agrees over several frames; each new stable board with new tiles is the next player's move. Prints each move and ends with 'totals: NAME=SCORE ...'. The game is saved as it goes (where, on stderr); --game carries a saved game on. On a terminal, type what the camera cannot see (pass, exchange N, challenge NAME, undo) and answer its questions (fix H8 Q, blank H10 O); help lists the rest.")
    wa.add_argument("source", metavar="SOURCE", help="a video file, a camera number, or picamera")
    camera_game_options(wa)
    wa.add_argument("--frames", type=int, default=4, help="frames that must agree before a move is taken (default 4)")
    wa.set_defaults(func=cmd_watch)

    rf = sub.add_parser("referee", help="run a scripted game from a JSON-lines event file", description="Referee a game given as a JSON-lines file of events; print each outcome and the final standings. Events that break a rule are rejected with the rule named.")
    rf.add_argument("script", metavar="SCRIPT.jsonl")
    rf.add_argument("--variant", help="the game variant the script must be (default: as the script says)")
    rf.add_argument("--lexicon", help="word-list file (default: as the script says)")
    rf.add_argument("--save", action="store_true", help="save the game (every accepted event) in the saved-games file")
    rf.add_argument("--game", type=int, metavar="GAME_ID", help="add the script's events to this saved game (a game_started line in the script is skipped)")
    db_option(rf)
    rf.set_defaults(func=cmd_referee)
    return p


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except (CompanionError, VisionError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
