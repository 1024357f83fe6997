#!/bin/sh
# Builds the live page's script, ../assets/app.js, from src/ and three.js,
# with the versions package-lock.json pins. The output is committed (the Go
# binary embeds it, so no Node is needed to run gloved); .ci/run rebuilds it
# when npm is available and fails if the bytes differ.
set -eu
cd "$(dirname "$0")"
npm ci --no-audit --no-fund --loglevel=error >/dev/null
npx --no-install esbuild src/main.js --bundle --minify --format=esm --target=es2020 \
  --legal-comments=eof --charset=utf8 --log-level=warning --outfile=../assets/app.js
