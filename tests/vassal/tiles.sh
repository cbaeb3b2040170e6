#!/usr/bin/env bash
# Runs VASSAL 3.7.26's own tiler (TilingHandler, ZipFileImageTiler) on a module with
# MusterTiles.java, on the engine the harness in ../shared/tools/vassal builds, and prints
# the images it found stale and sliced as JSON.
# usage: tiles.sh MODULE.vmod TILE_CACHE_DIR
# env:   MUSTER_VASSAL_TOOLS (the harness folder; default ../shared/tools/vassal beside the
#        repository), MUSTER_PLAY_CLASSES (where the class is compiled; default
#        target/vassal-play)
# exit:  0 sliced (or nothing to slice), 1 the tiler failed, 2 the engine could not be built
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
TOOLS="${MUSTER_VASSAL_TOOLS:-$REPO/../shared/tools/vassal}"
CP="$("$TOOLS/build.sh" | tail -n 1)" || exit 2
CLASSES="${MUSTER_PLAY_CLASSES:-$REPO/target/vassal-play}"
mkdir -p "$CLASSES"
KEY="$(sha256sum "$HERE/MusterTiles.java" | cut -d' ' -f1) $CP"
(
  flock 9
  if [ ! -f "$CLASSES/MusterTiles.class" ] || [ "$(cat "$CLASSES/tiles-key" 2>/dev/null)" != "$KEY" ]; then
    javac -nowarn -encoding UTF-8 -cp "$CP" -d "$CLASSES" "$HERE/MusterTiles.java" >&2 || exit 2
    printf '%s' "$KEY" > "$CLASSES/tiles-key"
  fi
) 9> "$CLASSES/.lock" || exit 2
HOME_DIR="$(mktemp -d "${TMPDIR:-/tmp}/vassal-tiles.XXXXXX")"
trap 'rm -rf "$HOME_DIR"' EXIT
java -Djava.awt.headless=true -Duser.home="$HOME_DIR" -cp "$CP:$CLASSES" MusterTiles "$@" || exit 1
