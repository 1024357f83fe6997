#!/bin/sh
# Runs coalbench (bench/coal/build.sh makes it) on each export directory
# given (from `gloved bench scenes --export DIR`, one subdirectory per
# scene), one JSON line each.
set -e
bench=${COALBENCH:-${WORK:-${TMPDIR:-/tmp}/coal-work}/coalbench}
for d in "$@"; do "$bench" "$d"; done
