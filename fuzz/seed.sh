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
echo "seeded: $(find corpus -type f | wc -l) files"
