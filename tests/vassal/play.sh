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
. "$(dirname "${BASH_SOURCE[0]}")/compile.sh" MusterPlay
CONF="$(mktemp -d "${TMPDIR:-/tmp}/vassal-play.XXXXXX")"
mkdir -p "$CONF/home" "$CONF/cache" "$CONF/tmp"
trap 'rm -rf "$CONF"' EXIT
timeout -k 10 "${VASSAL_TIMEOUT:-300}" xvfb-run -a -s "-screen 0 1920x1200x24" \
  java -Xmx"${VASSAL_XMX:-2g}" -Djava.awt.headless=false -Duser.home="$CONF/home" \
       -DVASSAL.conf="$CONF" -DVASSAL.cache="$CONF/cache" -Djava.io.tmpdir="$CONF/tmp" \
       -cp "$CP:$CLASSES" MusterPlay "$@"
