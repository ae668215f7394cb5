#!/usr/bin/env bash
# Rebuilds assets/ai.js from the AI SDK pinned in package-lock.json.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund
./node_modules/.bin/esbuild entry.js --bundle --format=esm --minify --platform=browser --legal-comments=eof \
	--banner:js="/* The AI SDK (npm ai, Apache-2.0) and its dependencies (zod and others, MIT), bundled by cmd/baton/internal/page/build/build.sh. */" \
	--outfile=../assets/ai.js
