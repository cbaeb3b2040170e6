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
. "$(dirname "${BASH_SOURCE[0]}")/compile.sh" MusterTiles
HOME_DIR="$(mktemp -d "${TMPDIR:-/tmp}/vassal-tiles.XXXXXX")"
trap 'rm -rf "$HOME_DIR"' EXIT
java -Djava.awt.headless=true -Duser.home="$HOME_DIR" -cp "$CP:$CLASSES" MusterTiles "$@" || exit 1
