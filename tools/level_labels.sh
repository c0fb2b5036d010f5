#!/bin/sh
# The levels' labels on one scale (issue 49): each level against an anchor of known rating,
# then the neighbour chain for the levels no anchor reaches (1 and 10). Run it on an
# otherwise idle machine: node-limited levels gain on clocked anchors when the CPU is shared.
# Each match prints the load average at its start and end, and its mean and maximum.
#
#   cargo build --release -p chesspi-engine
#   python3 tools/make_openings.py --count 100 --seed 29 > openings.epd
#   sh tools/level_labels.sh openings.epd target/labels      # about 2 hours on 2 cores
#   python3 tools/level_labels.py target/labels               # the labels from the results
set -eu
openings=${1:?openings EPD}
out=${2:?output directory}
games=${GAMES:-60}
jobs=${JOBS:-2}
mkdir -p "$out"
match() {
    name=$1; shift
    if [ -s "$out/$name.log" ] && grep -q '^JSON' "$out/$name.log"; then return; fi
    python3 tools/match.py "$@" --openings "$openings" --concurrency "$jobs" \
        --pgn "$out/$name.pgn" > "$out/$name.log.part" 2>&1
    mv "$out/$name.log.part" "$out/$name.log"
}
# Anchors: the ladder's Debian engines and, at the low end only, Stockfish's UCI_Elo.
match L9-phalanx --engine L9 --opponent phalanx --games "$games" --tc tc=10+0.1
match L8-phalanx --engine L8 --opponent phalanx --games "$games" --tc tc=10+0.1
match L7-hoichess --engine L7 --opponent hoichess --games "$games" --tc tc=10+0.1
match L6-sf1700 --engine L6 --opponent sf1700 --games "$games" --tc tc=10+0.1
match L5-sf1500 --engine L5 --opponent sf1500 --games "$games" --tc tc=10+0.1
match L4-sf1400 --engine L4 --opponent sf1400 --games "$games" --tc tc=10+0.1
match L3-sf1350 --engine L3 --opponent sf1350 --games "$games" --tc tc=10+0.1
match L2-sf1350 --engine L2 --opponent sf1350 --games "$games" --tc tc=10+0.1
# The chain: both sides within their node budgets, so the load does not matter. Level 10
# (400 000 nodes) wins almost every game against level 9 (45 000), which measures no
# difference: it is chained through full strength at 130 000 nodes (N130k), between them.
match L2-L1 --engine L2 --opponent L1 --games 100 --tc nodes=0
match N130k-L9 --engine chesspi --tc nodes=130000 --opponent L9 --opponent-tc nodes=0 --games 100
match L10-N130k --engine L10 --tc nodes=0 --opponent chesspi --opponent-tc nodes=130000 --games 100
