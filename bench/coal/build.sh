#!/bin/sh
# Builds coal 3.0.0 (formerly hpp-fcl) from its source into $PREFIX, then
# coalbench against it and Debian's libfcl-dev. CI does not need it.
#
#   bench/coal/build.sh [COAL_GIT [JRL_CMAKEMODULES_GIT]]
#
# COAL_GIT and JRL_CMAKEMODULES_GIT default to the projects' GitHub
# repositories; local clones work too. coal is not packaged in Debian 12:
# it takes jrl-cmakemodules at f1f95f9 in its cmake/ (newer ones want CMake
# >= 3.22), and cmake, Eigen, octomap, assimp and Boost from Debian:
#   apt-get install cmake libeigen3-dev liboctomap-dev libassimp-dev \
#     libboost-chrono-dev libboost-thread-dev libboost-date-time-dev \
#     libboost-serialization-dev libboost-filesystem-dev libfcl-dev
# About 4 minutes on 2 cores.
set -e
here=$(cd "$(dirname "$0")" && pwd)
coal_git=${1:-https://github.com/coal-library/coal}
jrl_git=${2:-https://github.com/jrl-umi3218/jrl-cmakemodules}
work=${WORK:-${TMPDIR:-/tmp}/coal-work}
prefix=${PREFIX:-$work/install}
mkdir -p "$work"
if [ ! -d "$work/coal" ]; then
  git clone -q "$coal_git" "$work/coal"
  git -C "$work/coal" checkout -q v3.0.0
  rm -rf "$work/coal/cmake"
  git clone -q "$jrl_git" "$work/coal/cmake"
  git -C "$work/coal/cmake" checkout -q f1f95f9
fi
mkdir -p "$work/build"
(cd "$work/build" && cmake "$work/coal" -DCMAKE_BUILD_TYPE=Release -DBUILD_PYTHON_INTERFACE=OFF \
  -DBUILD_TESTING=OFF -DCMAKE_INSTALL_PREFIX="$prefix" >/dev/null && make -j"$(nproc)" coal >/dev/null && make install >/dev/null)
g++ -std=c++17 -O2 -o "$work/coalbench" "$here/coalbench.cpp" -I"$prefix/include" -I/usr/include/eigen3 \
  -L"$prefix/lib" -Wl,-rpath,"$prefix/lib" -lcoal -lfcl -lccd -lboost_filesystem
echo "$work/coalbench"
