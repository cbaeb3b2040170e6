#!/usr/bin/env bash
# Plays a module in the real VASSAL 3.7.26 under Xvfb with MusterPlay.java (the actions a
# player takes beyond loading and dragging: charts, help, counter menus, the turn tracker,
# Refresh Counters, a screenshot), on the engine the harness in ../shared/tools/vassal builds.
# usage: play.sh --json OUT.json MODULE.vmod [--setup FILE.vsav | SAVE.vsav] ACTIONS...
#        (the actions are listed at the top of MusterPlay.java)
# env:   MUSTER_VASSAL_TOOLS (the harness folder; default ../shared/tools/vassal beside the
#        repository), MUSTER_PLAY_CLASSES (where MusterPlay is compiled; default
#        target/vassal-play), VASSAL_TIMEOUT (seconds, default 300), VASSAL_XMX (default 2g)
# exit:  0 no error, 1 errors, 2 the module did not load (or the engine could not be built),
#        124 timeout
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
TOOLS="${MUSTER_VASSAL_TOOLS:-$REPO/../shared/tools/vassal}"
# build.sh is idempotent (half a second when the engine is built) and prints the classpath.
CP="$("$TOOLS/build.sh" | tail -n 1)" || exit 2
CLASSES="${MUSTER_PLAY_CLASSES:-$REPO/target/vassal-play}"
mkdir -p "$CLASSES"
KEY="$(sha256sum "$HERE/MusterPlay.java" | cut -d' ' -f1) $CP"
(
  flock 9
  if [ ! -f "$CLASSES/MusterPlay.class" ] || [ "$(cat "$CLASSES/key" 2>/dev/null)" != "$KEY" ]; then
    javac -nowarn -encoding UTF-8 -cp "$CP" -d "$CLASSES" "$HERE/MusterPlay.java" >&2 || exit 2
    printf '%s' "$KEY" > "$CLASSES/key"
  fi
) 9> "$CLASSES/.lock" || exit 2
CONF="$(mktemp -d "${TMPDIR:-/tmp}/vassal-play.XXXXXX")"
mkdir -p "$CONF/home" "$CONF/cache" "$CONF/tmp"
trap 'rm -rf "$CONF"' EXIT
timeout -k 10 "${VASSAL_TIMEOUT:-300}" xvfb-run -a -s "-screen 0 1920x1200x24" \
  java -Xmx"${VASSAL_XMX:-2g}" -Djava.awt.headless=false -Duser.home="$CONF/home" \
       -DVASSAL.conf="$CONF" -DVASSAL.cache="$CONF/cache" -Djava.io.tmpdir="$CONF/tmp" \
       -cp "$CP:$CLASSES" MusterPlay "$@"
