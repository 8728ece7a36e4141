"""Build the default lexicon from Debian's scowl word lists and report its coverage.

Usage: python scripts/build_lexicon.py [--dest PATH] [--reference WORDLIST] [--if-missing]

Writes the words (sorted, upper-case, UTF-8, one a line) to the default
location (~/.local/share/table-companion/lexicons/scowl-80.txt, or under
$TABLE_COMPANION_DATA) unless --dest is given.  When the ENABLE word list is
present in ../shared/lexicons (or --reference names another list), prints how
much of it the new lexicon covers and how many words it has beyond it.
With --if-missing it does nothing when the lexicon file already exists (the
setup step uses this).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from companion.lexicon import (  # noqa: E402
    Lexicon,
    LexiconError,
    build_default_lexicon,
    coverage,
    default_lexicon_path,
)

ENABLE = REPO.parent / "shared" / "lexicons" / "enable1.txt"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dest", type=Path, default=None,
                        help=f"where to write the lexicon (default: {default_lexicon_path()})")
    parser.add_argument("--reference", type=Path, default=ENABLE,
                        help="word list to measure coverage against (default: ENABLE in ../shared)")
    parser.add_argument("--if-missing", action="store_true",
                        help="do nothing if the lexicon file already exists")
    args = parser.parse_args(argv)
    if args.if_missing and (args.dest or default_lexicon_path()).is_file():
        return 0

    started = time.perf_counter()
    try:
        dest = build_default_lexicon(args.dest)
        lexicon = Lexicon.from_file(dest)
    except (LexiconError, OSError) as exc:
        print(f"build_lexicon: {exc}", file=sys.stderr)
        return 1
    print(f"Built lexicon {dest}: {len(lexicon):,} words "
          f"({time.perf_counter() - started:.2f} s)")

    if args.reference.is_file():
        try:
            reference = Lexicon.from_file(args.reference)
        except LexiconError as exc:
            print(f"build_lexicon: cannot measure coverage: {exc}", file=sys.stderr)
            return 0
        cov = coverage(lexicon, reference)
        print(f"Coverage of {reference.name}: {cov.percent:.2f}% "
              f"({cov.covered:,} of {cov.reference_total:,} words; {cov.missing:,} missing); "
              f"{cov.beyond:,} words beyond {reference.name}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
