#!/bin/sh
# Prints the path of a Node binary of the version asked for (`24`, `20.19.0`, any npm version range of the
# `node-<os>-<arch>` package), installed once from the npm registry outside the workspace into
# ${ORPC_AGENT_NODE_DIR:-$HOME/.cache/orpc-agent/node}/<version>. Only the path goes to stdout, so callers can
# run "$(sh scripts/install-node.sh 24)" script.js. Used by the CI matrix and the packaging checks.
set -eu

version=${1:?usage: install-node.sh <version>, e.g. 24 or 20.19.0}

case "$(uname -s)" in
  Linux) platform=linux ;;
  Darwin) platform=darwin ;;
  *) echo "install-node.sh: unsupported OS $(uname -s)." >&2; exit 1 ;;
esac
case "$(uname -m)" in
  x86_64 | amd64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "install-node.sh: unsupported CPU $(uname -m)." >&2; exit 1 ;;
esac

package="node-$platform-$arch"
dir="${ORPC_AGENT_NODE_DIR:-${HOME}/.cache/orpc-agent/node}/$version"
binary="$dir/node_modules/$package/bin/node"

if [ ! -x "$binary" ]; then
  mkdir -p "$dir"
  # npm's own output goes to stderr: callers capture stdout as the binary path.
  npm install --prefix "$dir" --no-save --no-package-lock --no-audit --no-fund "$package@$version" >&2
fi
if [ ! -x "$binary" ]; then
  echo "install-node.sh: $package@$version installed, but $binary is missing." >&2
  exit 1
fi
echo "$binary"
