#!/usr/bin/env bash
# Probe of the native CDK Terrain path (not part of .ci/run: its terraform steps need hashicorp/aws 6.x, which the
# offline mirror of these machines does not hold). In a temporary copy: cdktn + @cdktn/provider-aws instead of cdktf
# + @cdktf/provider-aws, imports rewritten, type-check, synth; then prints how the synthesized stack differs from the
# default build and what the offline plan review says about the provider it now requires.
# Usage: scripts/ci/cdk-terrain-native.sh [provider-aws version]   (default 25.7.0; needs the npm registry)
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)
provider=${1:-25.7.0}
started=$SECONDS
step() { echo "[cdk-terrain-native +$((SECONDS - started))s] $*"; }
export CHECKPOINT_DISABLE=1 CDKTF_DISABLE_PLUGIN_CACHE_ENV=1

work=$(mktemp -d "${TMPDIR:-/tmp}/cdk-terrain-native.XXXXXX")
trap 'rm -rf "$work"' EXIT

step "default build: synth"
npm run -s synth >/dev/null
cp cdktf.out/stacks/payments-pipeline/cdk.tf.json "$work/default.cdk.tf.json"

step "copying the repository to $work/repo"
mkdir "$work/repo"
git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
  tar --null -T - -cf - | tar -xf - -C "$work/repo"
cd "$work/repo"

step "cdktn 0.24.0 + @cdktn/provider-aws $provider, imports rewritten"
npm pkg delete dependencies.cdktf 'dependencies.@cdktf/provider-aws'
npm pkg set dependencies.cdktn=0.24.0 "dependencies.@cdktn/provider-aws=$provider" dependencies.constructs=10.6.0
git -C "$repo" ls-files -- '*.ts' | xargs sed -i -E 's#from "cdktf"#from "cdktn"#; s#"@cdktf/provider-aws/lib/#"@cdktn/provider-aws/lib/#'
npm install --prefer-offline --no-audit --no-fund --loglevel=error
step "type-check"
npx tsc --noEmit
step "synth"
npm run -s synth >/dev/null
step "differences from the default build (besides the roots of the two folders):"
npx tsx "$repo/scripts/ci/compare-synth.ts" "$work/default.cdk.tf.json" cdktf.out/stacks/payments-pipeline/cdk.tf.json "$repo" "$work/repo" || true
step "offline plan review (expected to stop at the provider mirror):"
npm run -s plan -- --offline --outdir "$work/plan-out" 2>&1 | tail -3 || true
step "done in $((SECONDS - started)) s"
