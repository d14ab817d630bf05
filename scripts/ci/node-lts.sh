#!/usr/bin/env bash
# CI: runs `npm start` and `npm test` (the fast tier), and on 22 `npx cdktf synth`, on the other Node lines besides the
# development runtime (.nvmrc, Node 26, which .ci/run's first pass uses): the LTS line 22, the previous active line 24,
# and the machine's own Node 20, the oldest line the published packages' `engines` accept (>=20.11). The slow tier runs once, in .ci/run's first
# pass: what it adds (whole local clouds, real clients, terraform) depends on the code and the tools, not on the Node
# line, and running it once per line would multiply CI. The binaries come from the npm registry (scripts/ci/node-bin.sh);
# the repository's node_modules is reused as installed.
# Usage: scripts/ci/node-lts.sh [version|machine...]   (default: the pinned 22 and 24 releases below, and machine)
set -euo pipefail
cd "$(dirname "$0")/../.."
started=$SECONDS
# shellcheck source=scripts/ci/node-bin.sh
source scripts/ci/node-bin.sh
versions=("$@")
[ ${#versions[@]} -gt 0 ] || versions=(22.23.5 24.22.3 machine)
export CHECKPOINT_DISABLE=1 CDKTF_DISABLE_PLUGIN_CACHE_ENV=1

for version in "${versions[@]}"; do
  t0=$SECONDS
  dir=$(node_dir "$version")
  # npm, npx, jest and tsx all start through `#!/usr/bin/env node`, so PATH decides which Node runs them.
  actual=$(PATH="$dir/bin:$PATH" node -v)
  [ "$version" = machine ] || [ "$actual" = "v$version" ] || { echo "node-lts: expected v$version, got $actual" >&2; exit 1; }
  echo "[node-lts] Node $actual: npm start"
  PATH="$dir/bin:$PATH" npm start --silent >"${TMPDIR:-/tmp}/node-lts-start.$version.log" 2>&1 ||
    { tail -40 "${TMPDIR:-/tmp}/node-lts-start.$version.log"; echo "node-lts: npm start failed on Node $actual" >&2; exit 1; }
  tail -3 "${TMPDIR:-/tmp}/node-lts-start.$version.log"
  # cdktf-cli 0.21 starts on Node 20 and 22 only (its node-pty binaries stop at Node 22): docs/deploy.md says so and
  # tells teams on Node 22 to use it, so the 22 line holds the claim (about 12 s).
  if [[ "$actual" == v22.* ]]; then
    echo "[node-lts] Node $actual: npx cdktf synth"
    PATH="$dir/bin:$PATH" npx cdktf synth >"${TMPDIR:-/tmp}/node-lts-cdktf.$version.log" 2>&1 ||
      { tail -20 "${TMPDIR:-/tmp}/node-lts-cdktf.$version.log"; echo "node-lts: npx cdktf synth failed on Node $actual" >&2; exit 1; }
  fi
  echo "[node-lts] Node $actual: npm test"
  t1=$SECONDS
  PATH="$dir/bin:$PATH" npm test -- --silent
  echo "[node-lts] Node $actual: npm test took $((SECONDS - t1)) s"
  echo "[node-lts] Node $actual passed in $((SECONDS - t0)) s"
done
echo "[node-lts] all passed in $((SECONDS - started)) s"
