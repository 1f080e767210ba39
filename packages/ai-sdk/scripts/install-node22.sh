#!/bin/sh
# Prints the path of a Node >= 22 binary for the `ai` v7 leg (adapters.md §2.1: ai@7 and its @ai-sdk/* packages
# declare engines.node >=22, while the project floor stays Node 20.19). Uses the current `node` when it is
# already 22 or newer; otherwise installs `node-<os>-<arch>@22` from the npm registry once, outside the
# workspace, into ${ORPC_AGENT_NODE22_DIR:-$HOME/.cache/orpc-agent/node22}. Only the path goes to stdout.
set -eu

if command -v node >/dev/null 2>&1; then
  current_major=$(node -p 'process.versions.node.split(".")[0]')
  if [ "$current_major" -ge 22 ]; then
    command -v node
    exit 0
  fi
fi

case "$(uname -s)" in
  Linux) platform=linux ;;
  Darwin) platform=darwin ;;
  *) echo "install-node22.sh: unsupported OS $(uname -s); put Node >= 22 on PATH instead." >&2; exit 1 ;;
esac
case "$(uname -m)" in
  x86_64 | amd64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "install-node22.sh: unsupported CPU $(uname -m); put Node >= 22 on PATH instead." >&2; exit 1 ;;
esac

package="node-$platform-$arch"
dir="${ORPC_AGENT_NODE22_DIR:-${HOME}/.cache/orpc-agent/node22}"
binary="$dir/node_modules/$package/bin/node"

if [ ! -x "$binary" ]; then
  mkdir -p "$dir"
  # npm's own output goes to stderr: callers capture stdout as the binary path.
  npm install --prefix "$dir" --no-save --no-package-lock --no-audit --no-fund "$package@22" >&2
fi
if [ ! -x "$binary" ]; then
  echo "install-node22.sh: $package@22 installed, but $binary is missing." >&2
  exit 1
fi
echo "$binary"
