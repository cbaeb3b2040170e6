#!/usr/bin/env bash
# Seeds the fuzz corpora from the seed games and a module muster builds from them.
#   bash fuzz/seed.sh DIST   (DIST: a dist/ folder holding example-oasis.vmod)
set -euo pipefail
cd "$(dirname "$0")"
dist=${1:-../dist}
rm -rf corpus && mkdir -p corpus/{yaml,notation,hex_label,piece,saved_game}
n=0
# yaml: the first byte picks the kind (0 game, 1 oob, 2 counters, 3 map, 4 scenario, 5 rules, 6 errata).
for f in ../sources/*/game.yaml ../sources/*/oob.yaml ../sources/*/counters.yaml \
         ../sources/*/maps/*.yaml ../sources/*/scenarios/*.yaml ../sources/*/rules.yaml \
         ../sources/*/errata.yaml; do
  [ -f "$f" ] || continue
  case "$f" in
    */game.yaml) k=0 ;; */oob.yaml) k=1 ;; */counters.yaml) k=2 ;; */maps/*) k=3 ;;
    */scenarios/*) k=4 ;; */rules.yaml) k=5 ;; *) k=6 ;;
  esac
  n=$((n + 1))
  { printf "\\x0$k"; head -c 4000 "$f"; } > "corpus/yaml/seed-$n"
done
# notation and hex labels: the printed locations and unit lists of the scenarios.
grep -h -o '"[^"]*"' ../sources/*/scenarios/*.yaml | tr -d '"' | sort -u | sed -n '1,400p' |
  split -l 1 - corpus/notation/seed-
for l in A29.17 B52.35 A5.10 2403 20.26 A62.17 a29.17 B0.0 A29.1x ""; do
  printf '%s' "$l" > "corpus/hex_label/seed-$l"
done
# pieces and saves: from the example module.
tmp=$(mktemp -d)
unzip -q -o "$dist/example-oasis.vmod" -d "$tmp"
grep -o '+/null/[^<]*' "$tmp/buildFile.xml" | sed -n '1,50p' | split -l 1 - corpus/piece/seed-
cp "$tmp"/*.vsav corpus/saved_game/
unzip -q -o "$tmp"/*.vsav savedGame -d "$tmp/s" && cp "$tmp/s/savedGame" corpus/saved_game/savedGame
rm -rf "$tmp"
# Growing inputs, to find what a reader does in more than linear time or too deep: a piece
# of many traits (bare TABs, and a chain nested as VASSAL nests it), a save of many notes,
# modules of many boards and of turn levels nested deep.
E=$'\e' T=$'\t'
many=""; states=""
for i in $(seq 2000); do many+="mark;T$i$T"; states+="$T"; done
printf '+/1/%spiece;;;a.png;A/%snull;0;0;1;0' "$many" "$states" > corpus/piece/seed-many-traits
chain="piece;;;a.png;A"
for i in $(seq 120); do chain="mark;T$i$T${chain//$T/\\$T}"; done
printf '+/1/%s/null;0;0;1;0' "$chain" > corpus/piece/seed-deep-chain
printf 'begin_save%s%s\\%s+/1/%spiece;;;a.png;A/%snull;0;0;1;0%send_save' \
  "$E" "$E" "$E" "$many" "$states" "$E" > corpus/saved_game/seed-many-traits
{ printf 'begin_save%s%s' "$E" "$E"; for i in $(seq 5000); do printf '%sPNOTES%snote %d' "$E" "$T" "$i"; done
  printf '%send_save' "$E"; } > corpus/saved_game/seed-many-notes
tmp=$(mktemp -d)
{ printf '<VASSAL.build.GameModule name="Boards"><VASSAL.build.module.Map mapName="M">'
  printf '<VASSAL.build.module.map.BoardPicker><setup>MBoardPicker'
  for i in $(seq 0 1999); do printf '\tB%d\t%d\t%d' "$i" $((i % 45)) $((i / 45)); done
  printf '</setup>'
  for i in $(seq 0 1999); do printf '<VASSAL.build.module.map.boardPicker.Board name="B%d" width="100" height="100"/>' "$i"; done
  printf '</VASSAL.build.module.map.BoardPicker></VASSAL.build.module.Map></VASSAL.build.GameModule>'; } > "$tmp/buildFile.xml"
{ printf 'begin_save%s%s' "$E" "$E"; for i in $(seq 0 399); do printf '%s+/%d/piece;;;a.png;P/M;%d;%d;%d;0' "$E" "$i" $(( (i % 45) * 100 + 10 )) $(( (i / 45) * 100 + 10 )) "$i"; done
  printf '%send_save' "$E"; } > "$tmp/savedGame"
(cd "$tmp" && zip -q -X boards.zip buildFile.xml savedGame)
cp "$tmp/boards.zip" corpus/saved_game/seed-many-boards
{ printf '<VASSAL.build.GameModule name="Deep"><VASSAL.build.module.turn.TurnTracker name="Turn">'
  for i in $(seq 5000); do printf '<VASSAL.build.module.turn.ListTurnLevel name="L" list="a,b">'; done
  for i in $(seq 5000); do printf '</VASSAL.build.module.turn.ListTurnLevel>'; done
  printf '</VASSAL.build.module.turn.TurnTracker></VASSAL.build.GameModule>'; } > "$tmp/buildFile.xml"
(cd "$tmp" && rm -f deep.zip && zip -q -X deep.zip buildFile.xml savedGame)
cp "$tmp/deep.zip" corpus/saved_game/seed-deep-turn-levels
rm -rf "$tmp"
# hostile zips, written by hand, when python3 is there.
if command -v python3 >/dev/null; then python3 seed_zips.py corpus/saved_game; fi
echo "seeded: $(find corpus -type f | wc -l) files"
