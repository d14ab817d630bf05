#!/usr/bin/env bash
# CI: the CDK Terrain alias mode (the repository itself on cdktn; apps use the native `/cdktn` entry, which
# `npm run consumer-check` checks). Copies the repository to a temporary folder, swaps cdktf 0.21 for CDK Terrain
# (cdktn 0.24.0, installed under the name `cdktf`, so no import changes), installs, type-checks, runs the fast tier
# there and compares the synthesized cdk.tf.json with the default build: only "//".metadata.version may differ. The
# slow tier is not run again here: it consumes the same cdk.tf.json (which the comparison holds equal) through the same
# local cloud and terraform, and runs once in .ci/run.
# Needs the npm registry (or a warm npm cache) for `npm install`; nothing else goes to the network.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)
started=$SECONDS
step() { echo "[cdk-terrain +$((SECONDS - started))s] $*"; }
export CHECKPOINT_DISABLE=1 CDKTF_DISABLE_PLUGIN_CACHE_ENV=1

work=$(mktemp -d "${TMPDIR:-/tmp}/cdk-terrain.XXXXXX")
cleanup() { if [ "${KEEP_CDK_TERRAIN_DIR:-}" = 1 ]; then echo "kept $work"; else rm -rf "$work"; fi; }
trap cleanup EXIT

step "default build: synth with cdktf $(node -p 'require("cdktf/package.json").version')"
npm run -s synth >/dev/null
cp cdktf.out/stacks/payments-pipeline/cdk.tf.json "$work/default.cdk.tf.json"

step "copying the repository (tracked and unignored files) to $work/repo"
mkdir "$work/repo"
git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
  tar --null -T - -cf - | tar -xf - -C "$work/repo"
cd "$work/repo"

step "applying the recipe and installing"
npm pkg set devDependencies.cdktf=npm:cdktn@0.24.0 devDependencies.constructs=10.6.0 'overrides.@cdktf/provider-aws.cdktf=$cdktf'
npm install --prefer-offline --no-audit --no-fund --loglevel=error
npm ls cdktf constructs >/dev/null # fails when the tree is invalid (what --legacy-peer-deps would hide)
step "cdktf resolves to $(node -p 'const p = require("cdktf/package.json"); p.name + "@" + p.version')"

step "type-check"
npx tsc --noEmit
step "test suite (fast tier)"
npm test -- --silent
step "synth"
npm run -s synth >/dev/null
step "comparing with the default build"
npx tsx "$repo/scripts/ci/compare-synth.ts" "$work/default.cdk.tf.json" cdktf.out/stacks/payments-pipeline/cdk.tf.json "$repo" "$work/repo"
step "passed in $((SECONDS - started)) s"
