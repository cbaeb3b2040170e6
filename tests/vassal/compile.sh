# Sourced by play.sh and tiles.sh: builds the harness's engine (build.sh is idempotent, half
# a second when the engine is built) and compiles one of this folder's Java programs
# against it, once per change of its source or of the engine.
# usage: . compile.sh CLASS     sets CP (the engine's classpath) and CLASSES (where CLASS is)
# env:   MUSTER_VASSAL_TOOLS (the harness folder; default ../shared/tools/vassal beside the
#        repository), MUSTER_PLAY_CLASSES (where the classes go; default target/vassal-play)
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
TOOLS="${MUSTER_VASSAL_TOOLS:-$REPO/../shared/tools/vassal}"
CP="$("$TOOLS/build.sh" | tail -n 1)" || exit 2
CLASSES="${MUSTER_PLAY_CLASSES:-$REPO/target/vassal-play}"
mkdir -p "$CLASSES"
KEY="$(sha256sum "$HERE/$1.java" | cut -d' ' -f1) $CP"
(
  flock 9
  if [ ! -f "$CLASSES/$1.class" ] || [ "$(cat "$CLASSES/$1.key" 2>/dev/null)" != "$KEY" ]; then
    javac -nowarn -encoding UTF-8 -cp "$CP" -d "$CLASSES" "$HERE/$1.java" >&2 || exit 2
    printf '%s' "$KEY" > "$CLASSES/$1.key"
  fi
) 9> "$CLASSES/.lock" || exit 2
