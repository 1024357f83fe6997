#!/bin/sh
# Builds fclbench against Debian's libfcl-dev (apt-get install libfcl-dev)
# and runs it on each export directory given (from
# `gloved bench scenes --export DIR`, one subdirectory per scene).
set -e
here=$(dirname "$0")
out=${TMPDIR:-/tmp}/fclbench
g++ -std=c++17 -O2 -o "$out" "$here/fclbench.cpp" -I/usr/include/eigen3 -lfcl -lccd
for d in "$@"; do "$out" "$d"; done
