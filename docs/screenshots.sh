#!/usr/bin/env bash
# The README's pictures of the report and of the viewer: the demo league, its report, and headless
# Chromium's screenshots of the page (Debian: apt-get install chromium). Run from the repository root:
#   docs/screenshots.sh
set -euo pipefail
out=$(mktemp -d)
rookarena run configs/demo.yaml --out "$out/demo" >/dev/null
rookarena report "$out/demo" -o "$out/report.html"
rookarena replay "$out/demo" heuristic-vs-random-py-0001 -o "$out/game.html"
shot() { chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size="$1" --screenshot="$2" "$3" 2>/dev/null; }
shot 1280,1900 docs/report.png "file://$out/report.html"
shot 1280,1000 docs/viewer.png "file://$out/game.html#step=70&seat=0"
echo "docs/report.png and docs/viewer.png from $out"
