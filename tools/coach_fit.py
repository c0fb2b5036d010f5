#!/usr/bin/env python3
"""Fits the coach's scale to Stockfish's on natural positions (issue 49), from stored answers.

Reads the coach's answers (OUT/judged.jsonl of tools/coach_agreement.py run on a set of
tools/natural_blunders.py, with `explain`'s "before" and "after") and the set itself
(Stockfish's scores before and after each move). Two things, both on the TUNING half only:

1. The scale: the factor m on the coach's centipawns (already on lichess's scale) that brings
   its win-% nearest Stockfish's on the same positions (least squares over every position
   before and after a move, both scored in centipawns).
2. The warning threshold: re-classes each move from the coach's own evaluations, times m,
   with a mistake threshold t (the coach warns at loss >= t; now t = 10, m = 1), and picks the
   (m, t) that warns of the most blunders with at most --max-good of the good moves warned.
   A move the coach found best stays best; mate verdicts stay as the coach gave them.

The choice is then applied once to the held-out half (--check), which it never saw. The
figures are a re-class of stored answers, not new judgements: the coach re-searches a warning
deeper, which a lower threshold would do for more moves. Measure the engine again after.

    python3 tools/coach_fit.py --set docs/benchmarks/natural/tuning.jsonl \\
        --judged target/nat-tuning/judged.jsonl \\
        --check docs/benchmarks/natural/heldout.jsonl target/nat-heldout/judged.jsonl
"""

import argparse
import json
import math
import sys

WARNED = ("mistake", "blunder")


def win(cp):
    cp = max(-1000, min(1000, cp))
    return 50 + 50 * (2 / (1 + math.exp(-0.00368208 * cp)) - 1)


def load(set_path, judged_path):
    """Rows of the set joined with the coach's answers, by position and move."""
    with open(set_path) as f:
        wanted = {(r["fen"], r["move"]): r for r in map(json.loads, filter(str.strip, f))}
    rows = []
    with open(judged_path) as f:
        for judged in map(json.loads, filter(str.strip, f)):
            key = (judged["fen"], judged["move"])
            ours = judged.get("ours") or {}
            if key not in wanted or "verdict" not in ours:
                continue
            if "before" not in ours:
                sys.exit(f"{judged_path}: no 'before' in the coach's answers (an older engine)")
            rows.append((wanted[key], ours))
    if not rows:
        sys.exit(f"no move of {set_path} is in {judged_path}")
    return rows


def fit_scale(rows):
    pairs = []
    for sf, ours in rows:
        # The set's scores are White's (a mate is {"winner", "moves"}); the coach's the mover's.
        sign = 1 if sf["fen"].split()[1] == "w" else -1
        for s, c in ((sf["sf_before"], ours["before"]), (sf["sf_after"], ours["after"])):
            if "cp" in s and "cp" in c and abs(s["cp"]) < 1000 and abs(c["cp"]) < 1000:
                pairs.append((c["cp"], sign * s["cp"]))

    def error(m):
        return sum((win(m * c) - win(s)) ** 2 for c, s in pairs) / max(1, len(pairs))

    best = min((m / 100 for m in range(20, 401, 2)), key=error)
    return best, error(1.0), error(best), len(pairs)


def verdict(ours, m, t):
    """The coach's verdict with its centipawns times m and the mistake threshold t."""
    if ours["verdict"] == "best":
        return "best"
    b, a = ours["before"], ours["after"]
    if "cp" not in b or "cp" not in a:
        return ours["verdict"]
    loss = win(m * b["cp"]) - win(m * a["cp"])
    if loss >= max(15.0, t + 5):
        return "blunder"
    if loss >= t:
        return "mistake"
    return "inaccuracy" if loss >= min(5.0, t) else "good"


def score(rows, m, t):
    blunders = [o for s, o in rows if s["kind"] == "blunder"]
    good = [o for s, o in rows if s["kind"] != "blunder"]
    return (sum(verdict(o, m, t) in WARNED for o in blunders), len(blunders),
            sum(verdict(o, m, t) in WARNED for o in good), len(good))


def line(name, figures):
    wb, nb, wg, ng = figures
    return (f"{name}: blunders warned {wb} of {nb} ({100 * wb / max(1, nb):.1f} %), "
            f"good moves warned {wg} of {ng} ({100 * wg / max(1, ng):.1f} %)")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--set", required=True, help="the tuning half (natural_blunders.py)")
    p.add_argument("--judged", required=True, help="coach_agreement.py's judged.jsonl on it")
    p.add_argument("--check", nargs=2, metavar=("SET", "JUDGED"), help="the held-out half")
    p.add_argument("--max-good", type=float, default=0.02, help="share of good moves warned")
    args = p.parse_args()

    rows = load(args.set, args.judged)
    m, before, after, n = fit_scale(rows)
    print(f"scale on {n} positions of the tuning half: m = {m:.2f} (mean squared win-% "
          f"error {before:.1f} at m = 1, {after:.1f} at m = {m:.2f})")
    print(line("tuning, as the coach judged (m = 1, t = 10)", score(rows, 1.0, 10.0)))
    choices = []
    for scale in sorted({1.0, m}):
        for tenths in range(100, 39, -5):
            t = tenths / 10
            wb, nb, wg, ng = score(rows, scale, t)
            print(f"  m = {scale:.2f}, t = {t:4.1f}: " + line("tuning", (wb, nb, wg, ng)))
            if wg <= args.max_good * ng:
                # Most blunders warned; then the smaller change from the coach as it is.
                choices.append((wb, -abs(scale - 1.0), t, scale))
    if not choices:
        sys.exit("no (m, t) keeps the good moves warned within --max-good")
    _, _, t, scale = max(choices)
    print(f"chosen on the tuning half: m = {scale:.2f}, t = {t:.1f}")
    if args.check:
        held = load(*args.check)
        print(line("held out, as the coach judged", score(held, 1.0, 10.0)))
        print(line(f"held out, m = {scale:.2f}, t = {t:.1f}", score(held, scale, t)))


if __name__ == "__main__":
    main()
