#!/usr/bin/env bash
# CI: the deploy rehearsal (npm run rehearse, ~4-6 min) when moto_server and terraform are on this machine.
# It is kept out of `npm test` for its length. Exit 3 from the rehearsal means "not run": reported as such,
# never as passed. REHEARSE_REQUIRED=1 turns "not run" into a failure (for runners that must have the tools).
set -uo pipefail
cd "$(dirname "$0")/.."
missing=()
command -v "${TERRAFORM_BIN:-terraform}" >/dev/null 2>&1 || missing+=("terraform")
command -v "${MOTO_SERVER_BIN:-moto_server}" >/dev/null 2>&1 || missing+=("moto_server")
if [ "${#missing[@]}" -gt 0 ]; then
  echo "*** deploy rehearsal NOT RUN: ${missing[*]} missing (pip install 'moto[server]==5.2.1'; Terraform >= 1.5) ***" >&2
  [ "${REHEARSE_REQUIRED:-0}" = "1" ] && exit 1
  exit 0
fi
npm run -s rehearse
code=$?
if [ "$code" -eq 3 ]; then
  echo "*** deploy rehearsal NOT RUN (see above) ***" >&2
  [ "${REHEARSE_REQUIRED:-0}" = "1" ] && exit 1
  exit 0
fi
exit "$code"
