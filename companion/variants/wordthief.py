"""Wordthief: a card game of making words from a hand and stealing other players' words.

The rules as this referee applies them (``docs/variants/wordthief.md`` has the full text, the event
format and every house rule with its default):

* The deck (``companion/data/wordthief/deck-en.json`` by default; a club may give its own file):
  108 cards, the letters A to Z once in each of four suits, valued as English Scrabble tiles, and 4
  jokers worth 0. Two players may play with half the deck (two suits and two jokers).
* Each player cuts a card; the letter nearest A goes first (equal letters cut again). Seven cards
  each; one card is turned face up as trump and is the last card drawn.
* A turn: make one word of two or more cards from the hand, or steal one whole word from another
  player, or, if neither is possible, lose 5 points, draw one card and miss the turn. After making
  or stealing, draw back up to seven.
* Word value: the sum of its card values (jokers 0), times 2 when every card is of one suit
  (wordlocked; a joker takes the suit it is declared as), times 3 instead when that suit is trump.
  Length bonus after the multiplier: +5 per letter beyond four. Using every card of a hand of seven
  or more in one turn: +20.
* A steal uses every card of one word of several suits plus at least one card from the hand, as one
  or more new words, each holding a card of the stolen word, worth more in all than the stolen word.
  Nobody steals their own word; wordlocked words cannot be stolen. The thief scores the new words;
  the victim loses the stolen word's value (its bonus points stay).
* The game ends when the deck (trump included) is used up and a player has played every card, or
  when nobody can make or steal a word (every player in a row cannot, with the deck empty). Cards
  left in hand are subtracted. Highest total wins.
* Chips: white 1, blue 5, red 20. Every score change is also a chip movement with the bank, in the
  fewest chips, with change made when a player lacks the exact chips (``companion.ledger``).

Cards are named by letter and suit, ``QH`` for the Q of hearts, and ``JK1`` .. ``JK4`` for jokers;
in a word a joker is written with what it stands for, ``JK1=TD`` (a T of diamonds). The referee at a
real table cannot see into the deck or the hands: it counts cards, and knows a card only when an
event names it (the deal, a draw the camera saw, a hand shown, the cards played).
"""

from __future__ import annotations

import json
import unicodedata
from collections import Counter
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any, Iterable, Mapping, Sequence

from companion.errors import CompanionError, RuleViolation
from companion.players import read_players, seat_of
from companion.variants import handler_for
from companion.ledger import CHIP_VALUES, Entry, Ledger, fewest_chips, pay_chips

HAND = 7
STUCK_PENALTY = 5
LENGTH_FREE = 4          # letters without a length bonus
LENGTH_BONUS = 5         # per letter beyond LENGTH_FREE
ALL_CARDS_BONUS = 20     # every card of a hand of HAND or more used in one turn
LOCK_MULT, TRUMP_MULT = 2, 3
MIN_PLAYERS, MAX_PLAYERS = 2, 4
JOKER_PREFIX = "JK"

CUT, DEAL, PLAYING, COUNTING, ENDED = "cut", "deal", "playing", "counting", "ended"


class DeckError(CompanionError):
    """A deck file that cannot be used."""


# ---------------------------------------------------------------------------------------------
# The deck


@dataclass(frozen=True)
class Card:
    """One card of the deck: ``letter`` and ``suit`` are None for a joker."""

    id: str
    letter: str | None
    suit: str | None
    value: int

    @property
    def joker(self) -> bool:
        return self.letter is None


@dataclass(frozen=True)
class Deck:
    code: str
    name: str
    suits: Mapping[str, str]          # suit code -> name, in the file's order
    cards: Mapping[str, Card]         # card id -> card
    alphabet: tuple[str, ...]         # letters in the file's (alphabetical) order

    @property
    def size(self) -> int:
        return len(self.cards)

    def card(self, text: Any) -> Card:
        cid = _norm(text)
        if cid not in self.cards:
            jokers = sum(c.joker for c in self.cards.values())
            raise RuleViolation(f"{text!r} is not a card of this deck ({self.name}: letters {''.join(self.alphabet)} in suits "
                                f"{', '.join(f'{k} {v}' for k, v in self.suits.items())}, and jokers {JOKER_PREFIX}1 to {JOKER_PREFIX}{jokers})")
        return self.cards[cid]

    def describe(self, cid: str) -> str:
        card = self.cards[cid]
        return "a joker" if card.joker else f"the {card.letter} of {self.suits[card.suit]}"


def _norm(text: Any) -> str:
    return unicodedata.normalize("NFC", str(text)).strip().upper()


def load_deck_file(path: Path | str, half: bool = False) -> Deck:
    """Read a deck file (the format of ``companion/data/wordthief/deck-en.json``); ``half`` keeps the
    suits and jokers its ``half_deck`` names."""
    path = Path(path)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        suits = {_norm(k): str(v) for k, v in raw["suits"].items()}
        base = raw["values"]
        per_suit = raw.get("suit_values") or {}
        jokers = int(raw.get("jokers", 0))
        if half:
            spec = raw.get("half_deck") or {}
            keep = [_norm(s) for s in spec.get("suits", list(suits)[: len(suits) // 2])]
            suits = {k: suits[k] for k in keep}
            jokers = int(spec.get("jokers", jokers // 2))
        cards: dict[str, Card] = {}
        alphabet: list[str] = []
        for suit in suits:
            if len(suit) != 1 or not suit.isalpha():
                raise DeckError(f"{path}: suit code {suit!r} must be one letter")
            for letter, value in (per_suit.get(suit) or base).items():
                letter = _norm(letter)
                if len(letter) != 1 or not letter.isalpha():
                    raise DeckError(f"{path}: {letter!r} is not a single letter")
                if int(value) < 0:
                    raise DeckError(f"{path}: the {letter} of suit {suit} has a negative value")
                if letter not in alphabet:
                    alphabet.append(letter)
                cid = letter + suit
                if cid in cards:
                    raise DeckError(f"{path}: card {cid} is listed twice")
                cards[cid] = Card(cid, letter, suit, int(value))
        for k in range(1, jokers + 1):
            cards[f"{JOKER_PREFIX}{k}"] = Card(f"{JOKER_PREFIX}{k}", None, None, 0)
        return Deck(str(raw.get("code", path.stem)), str(raw.get("name", path.stem)) + (" (half deck)" if half else ""),
                    MappingProxyType(suits), MappingProxyType(cards), tuple(alphabet))
    except DeckError:
        raise
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise DeckError(f"cannot read the deck file {path}: {exc}") from None


@cache
def get_deck(code: str = "en", half: bool = False) -> Deck:
    """A bundled deck (``en``: ``companion/data/wordthief/deck-en.json``) or a deck file by path."""
    folder = resources.files("companion") / "data" / "wordthief"
    candidate = folder / f"deck-{code}.json"
    if candidate.is_file():
        return load_deck_file(Path(str(candidate)), half)
    if Path(code).is_file():
        return load_deck_file(code, half)
    bundled = sorted(p.name[5:-5] for p in folder.iterdir() if p.name.startswith("deck-") and p.name.endswith(".json"))
    raise DeckError(f"unknown Wordthief deck {code!r}: choose one of {', '.join(bundled)} or give a deck file")


# ---------------------------------------------------------------------------------------------
# Words on the table


@dataclass(frozen=True)
class PlayedCard:
    """A card in a word: a joker carries the letter and suit it was declared as."""

    id: str
    letter: str
    suit: str
    value: int

    @property
    def joker(self) -> bool:
        return self.id.startswith(JOKER_PREFIX) and self.id[len(JOKER_PREFIX):].isdigit()

    def __str__(self) -> str:
        return f"{self.id}={self.letter}{self.suit}" if self.joker else self.id


@dataclass(frozen=True)
class TableWord:
    id: int
    owner: int
    cards: tuple[PlayedCard, ...]
    turn: int
    base: int         # sum of card values
    mult: int         # 1, 2 (wordlocked) or 3 (wordlocked in trump)
    bonus: int        # length bonus

    @property
    def text(self) -> str:
        return "".join(c.letter for c in self.cards)

    @property
    def value(self) -> int:
        return self.base * self.mult

    @property
    def locked(self) -> bool:
        return self.mult > 1

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.cards)

    def spelled(self) -> str:
        return f"{self.text} [{' '.join(map(str, self.cards))}]"


def make_word(cards: Sequence[PlayedCard], trump_suit: str | None, owner: int = 0, wid: int = 0, turn: int = 0) -> TableWord:
    """A word with its value: card sum, times 2 if every card is of one suit, times 3 if that suit is trump."""
    suits = {c.suit for c in cards}
    mult = 1
    if len(suits) == 1:
        mult = TRUMP_MULT if suits == {trump_suit} else LOCK_MULT
    return TableWord(wid, owner, tuple(cards), turn, sum(c.value for c in cards), mult,
                     LENGTH_BONUS * max(0, len(cards) - LENGTH_FREE))


# ---------------------------------------------------------------------------------------------
# Configuration and state


@dataclass(frozen=True)
class WordthiefConfig:
    players: tuple[str, ...]
    deck_code: str = "en"
    half_deck: bool = False
    lexicon: str = "default"
    first: str | None = None

    @classmethod
    def from_event(cls, event: Mapping[str, Any]) -> "WordthiefConfig":
        players = list(read_players(event, "Wordthief", MIN_PLAYERS, MAX_PLAYERS))
        half = event.get("half_deck", False)
        if not isinstance(half, bool):
            raise RuleViolation("'half_deck' is true or false")
        if half and len(players) != 2:
            raise RuleViolation(f"the deck may be halved only for two players, not {len(players)}")
        first = event.get("first")
        if first is not None and first not in players:
            raise RuleViolation(f"'first' must be one of the players ({', '.join(players)}), not {first!r}")
        cfg = cls(tuple(players), str(event.get("deck", "en")), half, str(event.get("lexicon", "default")), first)
        deck = cfg.deck
        if deck.size < HAND * len(players) + 1:
            raise RuleViolation(f"the deck {deck.name} has {deck.size} cards, too few to deal {HAND} to {len(players)} players and turn a trump")
        return cfg

    @property
    def deck(self) -> Deck:
        return get_deck(self.deck_code, self.half_deck)


@dataclass(frozen=True)
class WordthiefState:
    config: WordthiefConfig
    phase: str
    cutters: tuple[int, ...] = ()            # who still cuts for first player
    first: int | None = None
    to_move: int = 0
    hands: tuple[int, ...] = ()              # cards in each hand
    known: tuple[tuple[str, ...], ...] = ()  # cards known to be in each hand
    deck: int = 0                            # cards in the deck, the trump card (drawn last) included
    trump: str | None = None
    table: tuple[TableWord, ...] = ()
    next_id: int = 1
    turn: int = 0
    stuck_run: int = 0                       # turns in a row nobody could play, with the deck empty
    went_out: int | None = None
    ledger: Ledger = Ledger()
    notes: tuple[str, ...] = ()
    winners: tuple[str, ...] = ()

    @property
    def players(self) -> tuple[str, ...]:
        return self.config.players

    @property
    def trump_suit(self) -> str | None:
        return self.config.deck.cards[self.trump].suit if self.trump else None

    def player_index(self, name: Any) -> int:
        return seat_of(self.config.players, name)

    def points(self, who: int) -> int:
        return self.ledger.total(self.players[who], "points")

    def words_of(self, who: int) -> tuple[TableWord, ...]:
        return tuple(w for w in self.table if w.owner == who)


def new_game(event: Mapping[str, Any]) -> WordthiefState:
    if event.get("type") != "game_started":
        raise RuleViolation("a game must begin with a game_started event")
    cfg = WordthiefConfig.from_event(event)
    n = len(cfg.players)
    base = WordthiefState(config=cfg, phase=CUT, cutters=tuple(range(n)), hands=(0,) * n, known=((),) * n, deck=cfg.deck.size)
    if cfg.first is not None:
        first = cfg.players.index(cfg.first)
        return replace(base, phase=DEAL, cutters=(), first=first, to_move=first,
                       notes=(f"{cfg.first} plays first (agreed); deal {HAND} cards each and turn the trump card",))
    return replace(base, notes=(f"{cfg.deck.name}, {cfg.deck.size} cards: each player cuts a card; the letter nearest A plays first",))


# ---------------------------------------------------------------------------------------------
# Helpers


def _set(seq: tuple, i: int, value: Any) -> tuple:
    out = list(seq)
    out[i] = value
    return tuple(out)


def _join(items: Sequence[str]) -> str:
    items = list(items)
    if not items:
        return "nobody"
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _card_list(value: Any, what: str) -> list[str]:
    if isinstance(value, str):
        value = value.replace(",", " ").split()
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise RuleViolation(f"{what} must be a list of cards, like [\"QH\", \"US\", \"JK1=IH\"]")
    return [_norm(v) for v in value]


def _where(state: WordthiefState, cid: str, skip_player: int | None = None, skip_word: int | None = None,
           trump_free: bool = False) -> str | None:
    """Where a card is known to be, other than in ``skip_player``'s hand or word ``skip_word``."""
    for i, cards in enumerate(state.known):
        if i != skip_player and cid in cards:
            return f"in {state.players[i]}'s hand"
    for w in state.table:
        if w.id != skip_word and cid in w.ids:
            return f"on the table in {state.players[w.owner]}'s word {w.text}"
    if cid == state.trump and state.deck > 0 and not trump_free:
        return f"the trump card, face up under the deck (it is drawn last; {state.deck} card(s) left)"
    return None


def _parse_played(state: WordthiefState, texts: list[str]) -> tuple[PlayedCard, ...]:
    deck = state.config.deck
    out = []
    for text in texts:
        cid, _, declared = text.partition("=")
        card = deck.card(cid)
        if card.joker:
            if not declared or len(declared) < 2:
                raise RuleViolation(f"joker {card.id} must be declared as a letter and a suit, like {card.id}=T{next(iter(deck.suits))}")
            letter, suit = declared[:-1], declared[-1]
            if letter not in deck.alphabet:
                raise RuleViolation(f"joker {card.id} is declared as {letter!r}, which is not a letter of this deck ({''.join(deck.alphabet)})")
            if suit not in deck.suits:
                raise RuleViolation(f"joker {card.id} is declared in suit {suit!r}; this deck's suits are {', '.join(f'{k} {v}' for k, v in deck.suits.items())}")
            out.append(PlayedCard(card.id, letter, suit, 0))
        else:
            if declared:
                raise RuleViolation(f"{card.id} is not a joker: only a joker is declared as another letter")
            out.append(PlayedCard(card.id, card.letter, card.suit, card.value))
    ids = [c.id for c in out]
    twice = sorted(i for i, n in Counter(ids).items() if n > 1)
    if twice:
        raise RuleViolation(f"card {', '.join(twice)} is used twice: each card is in one place")
    return tuple(out)


def _take_from_hand(state: WordthiefState, who: int, ids: Sequence[str]) -> tuple[str, ...]:
    """Check that ``who`` can play ``ids`` from their hand; return their known cards afterwards."""
    name = state.players[who]
    if len(ids) > state.hands[who]:
        raise RuleViolation(f"{name} holds {state.hands[who]} card(s) but plays {len(ids)} from the hand")
    known = list(state.known[who])
    unknown_slots = state.hands[who] - len(known)
    strangers = []
    for cid in ids:
        where = _where(state, cid, skip_player=who)
        if where:
            hint = ": to use a word on the table, steal it" if where.startswith("on the table") else ""
            raise RuleViolation(f"{cid} is {where}, not in {name}'s hand{hint}")
        if cid in known:
            known.remove(cid)
        else:
            strangers.append(cid)
    if len(strangers) > unknown_slots:
        shown = " ".join(state.known[who])
        raise RuleViolation(f"{' '.join(strangers)} cannot be in {name}'s hand: the hand is known to be {shown}" if unknown_slots == 0
                            else f"{name} has {unknown_slots} unknown card(s) in the hand, not enough for {' '.join(strangers)} (the rest is known: {shown})")
    return tuple(known)


def _draw(state: WordthiefState, who: int, need: int, spec: Any, known: tuple[str, ...]) -> tuple[WordthiefState, str]:
    """Draw ``need`` cards for ``who`` (``spec``: the cards seen, a count, or None for the count the
    rules give). The trump card is the last card of the deck."""
    name = state.players[who]
    cards: list[str] = []
    if spec is None:
        count = need
    elif isinstance(spec, int) and not isinstance(spec, bool):
        count = spec
    else:
        cards = _card_list(spec, "'drawn'")
        count = len(cards)
    if count < 0:
        raise RuleViolation("a draw cannot be negative")
    if count and state.deck == 0:
        raise RuleViolation(f"the deck is empty: {name} cannot draw")
    if count > state.deck:
        raise RuleViolation(f"the deck holds only {state.deck} card(s): {name} cannot draw {count}")
    if count != need:
        raise RuleViolation(f"{name} draws {need} card(s) now, not {count}")
    deck_after = state.deck - count
    for cid in cards:
        state.config.deck.card(cid)
    if len(set(cards)) != len(cards):
        raise RuleViolation("the same card is drawn twice")
    if cards and state.trump:
        if deck_after == 0 and state.trump not in cards:
            raise RuleViolation(f"the last card of the deck is the trump card {state.trump}: it must be among the cards drawn")
        if deck_after > 0 and state.trump in cards:
            raise RuleViolation(f"the trump card {state.trump} is drawn last, but the deck would still hold {deck_after}")
    for cid in cards:
        where = _where(state, cid, trump_free=deck_after == 0) or (f"already in {name}'s hand" if cid in known else None)
        if where:
            raise RuleViolation(f"{cid} cannot be drawn: it is {where}")
    new_known = known + tuple(cards)
    if deck_after == 0 and count and state.trump not in new_known:
        new_known += (state.trump,)  # the face-up trump card is the last card drawn: everyone saw it
    new = replace(state, hands=_set(state.hands, who, state.hands[who] + count), deck=deck_after,
                  known=_set(state.known, who, tuple(sorted(new_known))))
    if not count:
        text = "draws nothing" + (" (the deck is empty)" if state.deck == 0 else "")
    else:
        seen = f" ({' '.join(cards)})" if cards else ""
        text = f"draws {count}{seen}" + (f", the last being the trump card {state.trump}" if deck_after == 0 else "") + f"; deck {deck_after}"
    return new, text


def _book(state: WordthiefState, entries: Sequence[Entry], label: str) -> Ledger:
    """Add points entries, and for each player the chips that follow them: the chips a player holds
    are always worth their score, or nothing while the score is below zero (the debt stays on the
    score sheet and later gains pay it off first)."""
    ledger = state.ledger.add(*entries)
    for name in state.players:
        net = sum(e.amount for e in entries if e.player == name)
        old = state.ledger.total(name, "points")
        move = max(0, old + net) - max(0, old)
        if move > 0:
            chips = fewest_chips(move)
            cause = f"{label}: takes {move} from the bank"
        elif move < 0:
            chips = pay_chips(ledger.chips_of(name), -move)
            cause = f"{label}: returns {-move} to the bank"
        else:
            continue
        chips = {c: n for c, n in chips.items() if n}
        amount = sum(CHIP_VALUES[c] * n for c, n in chips.items())
        if any(n < 0 for n in chips.values()) and any(n > 0 for n in chips.values()):
            cause += " (with change)"
        ledger = ledger.add(Entry(name, "chips", amount, cause, chips=chips))
    return ledger


def _word_entries(state: WordthiefState, who: int, words: Iterable[TableWord]) -> list[Entry]:
    name = state.players[who]
    out = []
    suits = state.config.deck.suits
    for w in words:
        how = f"{w.base}" if w.mult == 1 else f"{w.base} x{w.mult}, wordlocked in {suits[w.cards[0].suit]}" + (" (trump)" if w.mult == TRUMP_MULT else "")
        out.append(Entry(name, "points", w.value, f"turn {state.turn}: {w.text} {how}"))
        if w.bonus:
            out.append(Entry(name, "points", w.bonus, f"turn {state.turn}: {w.text}, {len(w.cards)} letters"))
    return out


def _actor(state: WordthiefState, event: Mapping[str, Any]) -> int:
    who = state.player_index(event.get("player"))
    if state.phase == CUT:
        raise RuleViolation("the game has not started: each player cuts a card first (a cut event)")
    if state.phase == DEAL:
        raise RuleViolation("the cards have not been dealt: deal seven each and turn the trump card (a deal event)")
    if state.phase == COUNTING:
        raise RuleViolation("the game is over: the cards left in the hands are counted now (an end_hands event)")
    if state.phase == ENDED:
        raise RuleViolation("the game is over: no more turns")
    if who != state.to_move:
        raise RuleViolation(f"it is {state.players[state.to_move]}'s turn, not {state.players[who]}'s (play passes to the left)")
    return who


def _after_turn(state: WordthiefState, who: int, notes: list[str]) -> WordthiefState:
    n = len(state.players)
    if state.deck == 0 and state.hands[who] == 0 and state.phase == PLAYING:
        notes.append(f"the deck is used up and {state.players[who]} has played every card: the game is over; "
                     f"show the cards left in the hands (end_hands)")
        state = replace(state, phase=COUNTING, went_out=who)
    else:
        nxt = (who + 1) % n
        notes.append(f"{state.players[nxt]} to play")
        state = replace(state, to_move=nxt)
    return replace(state, notes=tuple(notes))


# ---------------------------------------------------------------------------------------------
# Events


def apply_cut(state: WordthiefState, event: Mapping[str, Any]) -> WordthiefState:
    if state.phase != CUT:
        raise RuleViolation("the cut for first player is over")
    cards = event.get("cards")
    if not isinstance(cards, Mapping):
        raise RuleViolation("a cut needs 'cards': the card each player turned over, like {\"Ann\": \"QH\", \"Ben\": \"CS\"}")
    cutters = {state.player_index(p) for p in cards}
    expected = set(state.cutters)
    if cutters != expected:
        who = _join([state.players[i] for i in sorted(expected)])
        raise RuleViolation(f"{who} cut{'s' if len(expected) == 1 else ''} now" + (" (the tie is cut again)" if len(expected) < len(state.players) else ""))
    deck = state.config.deck
    turned = {}
    for name, text in cards.items():
        card = deck.card(text)
        if card.joker:
            raise RuleViolation(f"{name} turned a joker, which has no letter: {name} cuts another card")
        turned[state.player_index(name)] = card
    ids = [c.id for c in turned.values()]
    if len(set(ids)) != len(ids):
        raise RuleViolation("two players cannot turn the same card")
    rank = {i: deck.alphabet.index(c.letter) for i, c in turned.items()}
    best = min(rank.values())
    top = tuple(sorted(i for i, r in rank.items() if r == best))
    shown = ", ".join(f"{state.players[i]} {c.id}" for i, c in sorted(turned.items()))
    if len(top) > 1:
        names = _join([state.players[i] for i in top])
        return replace(state, cutters=top, notes=(f"cut: {shown}: {names} tie on {turned[top[0]].letter}: they cut again",))
    first = top[0]
    return replace(state, phase=DEAL, cutters=(), first=first, to_move=first,
                   notes=(f"cut: {shown}: {state.players[first]} has the letter nearest A and plays first; "
                          f"the cards go back and are shuffled; deal {HAND} each and turn the trump card",))


def apply_deal(state: WordthiefState, event: Mapping[str, Any]) -> WordthiefState:
    if state.phase == CUT:
        raise RuleViolation("cut for first player before the deal")
    if state.phase != DEAL:
        raise RuleViolation("the cards have already been dealt")
    deck = state.config.deck
    if event.get("trump") is None:
        raise RuleViolation("a deal needs 'trump': the card turned face up, like \"KD\"")
    trump = deck.card(event["trump"])
    if trump.joker:
        raise RuleViolation("a joker cannot be the trump card (it has no suit): shuffle it back and turn the next card")
    n = len(state.players)
    known = [()] * n
    hands = event.get("hands") or {}
    if not isinstance(hands, Mapping):
        raise RuleViolation("'hands' maps players to the cards seen in their hands, like {\"Ann\": [\"QH\", \"US\"]}")
    seen: dict[str, str] = {}
    for name, cards in hands.items():
        i = state.player_index(name)
        ids = _card_list(cards, f"{name}'s hand")
        if len(ids) > HAND:
            raise RuleViolation(f"{name} is dealt {HAND} cards, not {len(ids)}")
        for cid in ids:
            deck.card(cid)
            if cid == trump.id:
                raise RuleViolation(f"{cid} is the trump card, not in {name}'s hand")
            if cid in seen:
                raise RuleViolation(f"{cid} cannot be in both {seen[cid]}'s and {name}'s hands")
            seen[cid] = name
        known[i] = tuple(sorted(ids))
    left = deck.size - HAND * n
    first = state.first or 0
    return replace(state, phase=PLAYING, hands=(HAND,) * n, known=tuple(known), deck=left, trump=trump.id, to_move=first,
                   notes=(f"deal: {HAND} cards each; trump {trump.id} ({deck.suits[trump.suit]}), drawn last; deck {left}; "
                          f"{state.players[first]} to play",))


def apply_word(state: WordthiefState, event: Mapping[str, Any]) -> WordthiefState:
    who = _actor(state, event)
    name = state.players[who]
    cards = _parse_played(state, _card_list(event.get("cards"), "a word's 'cards'"))
    if len(cards) < 2:
        raise RuleViolation("a word has two or more letters")
    ids = [c.id for c in cards]
    known = _take_from_hand(state, who, ids)
    hand_before = state.hands[who]
    state = replace(state, turn=state.turn + 1, stuck_run=0)
    word = make_word(cards, state.trump_suit, who, state.next_id, state.turn)
    entries = _word_entries(state, who, [word])
    if len(ids) == hand_before and hand_before >= HAND:
        entries.append(Entry(name, "points", ALL_CARDS_BONUS, f"turn {state.turn}: used all {hand_before} cards in the hand"))
    ledger = _book(state, entries, f"turn {state.turn}")
    state = replace(state, hands=_set(state.hands, who, hand_before - len(ids)), table=state.table + (word,),
                    next_id=state.next_id + 1, ledger=ledger)
    need = min(max(0, HAND - state.hands[who]), state.deck)
    state, drew = _draw(state, who, need, event.get("drawn"), known)
    gained = sum(e.amount for e in entries)
    note = f"turn {state.turn}: {name} makes {word.spelled()} for {gained}; {drew}"
    return _after_turn(state, who, [note])


def apply_steal(state: WordthiefState, event: Mapping[str, Any]) -> WordthiefState:
    who = _actor(state, event)
    name = state.players[who]
    spec = event.get("words")
    if not isinstance(spec, list) or not spec:
        raise RuleViolation("a steal needs 'words': the new words as lists of cards, like [[\"CS\", \"AH\", \"TS\", \"SD\"]]")
    words = [_parse_played(state, _card_list(w, "each new word")) for w in spec]
    ids = [c.id for w in words for c in w]
    twice = sorted(i for i, k in Counter(ids).items() if k > 1)
    if twice:
        raise RuleViolation(f"card {', '.join(twice)} is used twice: each card is in one place")
    touched = [w for w in state.table if set(w.ids) & set(ids)]
    if not touched:
        raise RuleViolation("a steal takes a word from the table, but none of these cards is on the table (to make a word from the hand, use a word event)")
    if len(touched) > 1:
        several = _join([f"{state.players[w.owner]}'s {w.text}" for w in touched])
        raise RuleViolation(f"a steal takes one whole word, not cards of several ({several})")
    stolen = touched[0]
    owner = state.players[stolen.owner]
    if event.get("from") is not None and state.player_index(event["from"]) != stolen.owner:
        raise RuleViolation(f"{stolen.text} is {owner}'s word, not {event['from']}'s")
    if event.get("word") is not None and _norm(event["word"]) != stolen.text:
        raise RuleViolation(f"these cards are {owner}'s word {stolen.text}, not {_norm(event['word'])}")
    if stolen.owner == who:
        raise RuleViolation(f"{stolen.text} is {name}'s own word: nobody steals, changes or locks their own words")
    if stolen.locked:
        suit = state.config.deck.suits[stolen.cards[0].suit]
        raise RuleViolation(f"{stolen.text} is wordlocked (every card {suit}): a wordlocked word cannot be stolen")
    missing = [cid for cid in stolen.ids if cid not in ids]
    if missing:
        raise RuleViolation(f"a steal must use every card of the stolen word {stolen.spelled()}: {' '.join(missing)} is missing")
    from_hand = [cid for cid in ids if cid not in stolen.ids]
    if not from_hand:
        raise RuleViolation(f"a steal must add at least one card from {name}'s hand to {stolen.text}")
    for w in words:
        text = "".join(c.letter for c in w)
        if len(w) < 2:
            raise RuleViolation(f"every new word has two or more letters, not {text}")
        if not set(c.id for c in w) & set(stolen.ids):
            raise RuleViolation(f"each new word must hold at least one card of the stolen word {stolen.text}: {text} holds none")
    known = _take_from_hand(state, who, from_hand)
    hand_before = state.hands[who]
    state = replace(state, turn=state.turn + 1, stuck_run=0)
    new_words = []
    for k, w in enumerate(words):
        new_words.append(make_word(w, state.trump_suit, who, state.next_id + k, state.turn))
    total = sum(w.value for w in new_words)
    if total <= stolen.value:
        texts = " + ".join(f"{w.text} {w.value}" for w in new_words)
        raise RuleViolation(f"the new words must be worth more than the stolen word {stolen.text} ({stolen.value}): {texts} = {total}")
    entries = _word_entries(state, who, new_words)
    if len(from_hand) == hand_before and hand_before >= HAND:
        entries.append(Entry(name, "points", ALL_CARDS_BONUS, f"turn {state.turn}: used all {hand_before} cards in the hand"))
    entries.append(Entry(owner, "points", -stolen.value, f"turn {state.turn}: {stolen.text} stolen by {name} (its bonus points stay)"))
    ledger = _book(state, entries, f"turn {state.turn}")
    table = tuple(w for w in state.table if w.id != stolen.id) + tuple(new_words)
    state = replace(state, hands=_set(state.hands, who, hand_before - len(from_hand)), table=table,
                    next_id=state.next_id + len(new_words), ledger=ledger)
    need = min(max(0, HAND - state.hands[who]), state.deck)
    state, drew = _draw(state, who, need, event.get("drawn"), known)
    gained = sum(e.amount for e in entries if e.player == name)
    note = (f"turn {state.turn}: {name} steals {owner}'s {stolen.text} ({stolen.value}) and makes "
            f"{', '.join(w.spelled() for w in new_words)} for {gained}; {owner} loses {stolen.value}; {drew}")
    return _after_turn(state, who, [note])


def apply_stuck(state: WordthiefState, event: Mapping[str, Any]) -> WordthiefState:
    who = _actor(state, event)
    name = state.players[who]
    run = state.stuck_run + 1 if state.deck == 0 else 0
    state = replace(state, turn=state.turn + 1, stuck_run=run)
    entries = [Entry(name, "points", -STUCK_PENALTY, f"turn {state.turn}: cannot make or steal a word")]
    state = replace(state, ledger=_book(state, entries, f"turn {state.turn}"))
    state, drew = _draw(state, who, min(1, state.deck), event.get("drawn"), state.known[who])
    notes = [f"turn {state.turn}: {name} cannot make or steal a word: loses {STUCK_PENALTY} and misses the turn; {drew}"]
    if run >= len(state.players):
        notes.append("nobody can make or steal a word: the game is over; show the cards left in the hands (end_hands)")
        return replace(state, phase=COUNTING, notes=tuple(notes))
    return _after_turn(state, who, notes)


def apply_hand(state: WordthiefState, event: Mapping[str, Any]) -> WordthiefState:
    """A player shows their whole hand (the camera reads it): the referee then knows every card."""
    who = state.player_index(event.get("player"))
    name = state.players[who]
    if state.phase not in (PLAYING, COUNTING):
        raise RuleViolation("hands are shown once the cards are dealt")
    ids = _card_list(event.get("cards"), "'cards'")
    _check_hand(state, who, ids)
    return replace(state, known=_set(state.known, who, tuple(sorted(ids))),
                   notes=(f"{name} shows the hand: {' '.join(ids) or 'no cards'}",))


def _check_hand(state: WordthiefState, who: int, ids: list[str]) -> None:
    name = state.players[who]
    if len(ids) != state.hands[who]:
        raise RuleViolation(f"{name} holds {state.hands[who]} card(s), not {len(ids)}")
    for cid in ids:
        state.config.deck.card(cid)
        where = _where(state, cid, skip_player=who)
        if where:
            raise RuleViolation(f"{cid} cannot be in {name}'s hand: it is {where}")
    if len(set(ids)) != len(ids):
        raise RuleViolation(f"the same card is listed twice in {name}'s hand")
    missing = Counter(state.known[who]) - Counter(ids)
    if missing:
        raise RuleViolation(f"{name}'s hand is known to hold {' '.join(sorted(missing))}")


def apply_end_hands(state: WordthiefState, event: Mapping[str, Any]) -> WordthiefState:
    if state.phase == ENDED:
        raise RuleViolation("the hands have already been counted: the game is over")
    if state.phase != COUNTING:
        raise RuleViolation("the game is not over: it ends when the deck is used up and a player has played every card, or nobody can make or steal a word")
    hands = event.get("hands")
    if not isinstance(hands, Mapping):
        raise RuleViolation("end_hands needs 'hands': the cards left in each hand, like {\"Ben\": [\"QH\", \"ZC\"]}")
    listed = {state.player_index(p): _card_list(c, f"{p}'s hand") for p, c in hands.items()}
    missing = [state.players[i] for i, n in enumerate(state.hands) if n and i not in listed]
    if missing:
        raise RuleViolation(f"the cards left in the hand{'s' if len(missing) > 1 else ''} of {_join(missing)} are needed to finish the game")
    all_ids = [cid for ids in listed.values() for cid in ids]
    twice = sorted(i for i, k in Counter(all_ids).items() if k > 1)
    if twice:
        raise RuleViolation(f"card {', '.join(twice)} is listed in two hands")
    deck = state.config.deck
    entries = []
    notes = []
    for i, ids in sorted(listed.items()):
        _check_hand(state, i, ids)
        value = sum(deck.cards[c].value for c in ids)
        if ids:
            entries.append(Entry(state.players[i], "points", -value, f"cards left in hand: {' '.join(ids)}"))
            notes.append(f"{state.players[i]} holds {' '.join(ids)}: -{value}")
    ledger = _book(state, entries, "end of game")
    state = replace(state, ledger=ledger, known=tuple(tuple(sorted(listed.get(i, state.known[i]))) for i in range(len(state.players))))
    best = max(state.points(i) for i in range(len(state.players)))
    winners = tuple(p for i, p in enumerate(state.players) if state.points(i) == best)
    notes.append(f"{_join(winners)} win{'s' if len(winners) == 1 else ''} with {best}")
    return replace(state, phase=ENDED, winners=winners, notes=tuple(notes))


HANDLERS = {
    "cut": apply_cut,
    "deal": apply_deal,
    "word": apply_word,
    "steal": apply_steal,
    "stuck": apply_stuck,
    "hand": apply_hand,
    "end_hands": apply_end_hands,
}


def apply(state: WordthiefState, event: Mapping[str, Any]) -> WordthiefState:
    handler = handler_for(HANDLERS, event, "Wordthief")
    return handler(state, event)


# ---------------------------------------------------------------------------------------------
# The plug-in interface


def complete(state: WordthiefState, event: dict, judge) -> dict:
    """Check a move's words against the word list before it is saved (an unacceptable word is
    refused and the player plays again); fill in the hands the referee already knows at the end."""
    kind = event.get("type")
    if kind in ("word", "steal"):
        apply(state, event)  # the rules first: a rule broken is named before the words are judged
        groups = [event["cards"]] if kind == "word" else event["words"]
        texts = ["".join(c.letter for c in _parse_played(state, _card_list(g, "a word"))) for g in groups]
        verdict = judge(texts)
        if not verdict.acceptable:
            raise RuleViolation(f"{verdict}: the move is refused; {event.get('player')} plays again")
        event["ruling"] = str(verdict)
    elif kind == "end_hands" and state.phase == COUNTING:
        hands = dict(event.get("hands") or {})
        for i, name in enumerate(state.players):
            if name not in hands and state.hands[i] and len(state.known[i]) == state.hands[i]:
                hands[name] = list(state.known[i])
        event["hands"] = hands
    return event


def _holdings(state: WordthiefState) -> str:
    parts = []
    for i, p in enumerate(state.players):
        chips = state.ledger.chips_of(p)
        debt = f"; owes {-state.points(i)}" if state.points(i) < 0 else ""
        parts.append(f"{p} {state.points(i)} [" + ", ".join(f"{n} {c}" for c, n in chips.items()) + debt + "]")
    return "holdings: " + "; ".join(parts)


def report(before: WordthiefState, after: WordthiefState, event: Mapping[str, Any]) -> list[str]:
    undo = event.get("type") == "undo"
    notes = ["undo: the last event is taken back"] if undo else list(after.notes)
    # For the final count every player's line comes first; otherwise the move, then its ledger lines.
    head = len(notes) - 1 if event.get("type") == "end_hands" else 1
    lines = notes[:head]
    for e in after.ledger.since(len(before.ledger.entries)):
        lines.append(f"     {e}")
    if undo or len(after.ledger.entries) != len(before.ledger.entries):
        lines.append("     " + _holdings(after))
    return lines + notes[head:]


def standings(state: WordthiefState) -> list[tuple[str, int]]:
    return sorted(((p, state.points(i)) for i, p in enumerate(state.players)), key=lambda pt: -pt[1])


def is_over(state: WordthiefState) -> bool:
    return state.phase == ENDED


def format_final(state: WordthiefState) -> str:
    title = "final standings" if state.phase == ENDED else "standings so far"
    lines = [f"{title} (Wordthief, deck: {state.config.deck.name}):",
             f"{'':>3}  {'player':<12}{'points':>7}{'red':>5}{'blue':>5}{'white':>6}  words on the table"]
    previous, place = None, 0
    for n, (name, pts) in enumerate(standings(state), start=1):
        if pts != previous:
            place, previous = n, pts
        i = state.players.index(name)
        chips = state.ledger.chips_of(name)
        words = " ".join(w.text for w in state.words_of(i)) or "-"
        lines.append(f"{place:>2}.  {name:<12}{pts:>7}{chips['red']:>5}{chips['blue']:>5}{chips['white']:>6}  {words}")
    if state.phase == ENDED:
        lines.append("winner: " + " and ".join(state.winners) + (" (shared)" if len(state.winners) > 1 else ""))
    elif state.phase == PLAYING:
        lines.append(f"game not over: {state.players[state.to_move]} to play; deck {state.deck}")
    elif state.phase == COUNTING:
        lines.append("game over: the cards left in the hands are still to be counted")
    return "\n".join(lines)
