#!/bin/sh
# Prints the path of a Node >= 22 binary for the `ai` v7 leg (ai@7 and its @ai-sdk/* packages declare
# engines.node >=22, while the project floor stays Node 20.19). Uses the current `node` when it is already 22 or
# newer; otherwise the repository's scripts/install-node.sh installs `node-<os>-<arch>@22` from the npm registry
# once, outside the workspace. Only the path goes to stdout.
set -eu

if command -v node >/dev/null 2>&1; then
  current_major=$(node -p 'process.versions.node.split(".")[0]')
  if [ "$current_major" -ge 22 ]; then
    command -v node
    exit 0
  fi
fi

exec sh "$(dirname "$0")/../../../scripts/install-node.sh" 22
