#!/usr/bin/env bash
# Calls a published PaiFlow workflow with curl:
#   PAIFLOW_API_KEY=pf_… scripts/curl-published.sh <base-url> <slug> ['<inputs JSON>'] [sync|stream|async]
#   e.g. PAIFLOW_API_KEY=$KEY scripts/curl-published.sh http://localhost:3000 support-triage '{"message":"hi"}'
# The key comes from the environment and reaches curl through a file descriptor, so it never appears in `ps`.
# IDEMPOTENCY_KEY (optional) is sent as the Idempotency-Key header. Prints the answer (SSE lines for stream);
# on an HTTP error prints the error body and exits 22.
set -euo pipefail
usage="usage: PAIFLOW_API_KEY=pf_… $0 <base-url> <slug> ['<inputs JSON>'] [sync|stream|async]"
base="${1:?$usage}"
slug="${2:?$usage}"
inputs="${3:-{\}}"
mode="${4:-sync}"
: "${PAIFLOW_API_KEY:?$usage}"
case "$mode" in sync|stream|async) ;; *) echo "$usage" >&2; exit 2 ;; esac
[[ "$slug" =~ ^[a-z0-9-]+$ ]] || { echo "invalid slug: $slug" >&2; exit 2; }

args=(--silent --show-error --fail-with-body --max-time "${CURL_MAX_TIME:-120}"
  -X POST "${base%/}/api/v1/workflows/$slug/run"
  -H 'content-type: application/json'
  --data-binary @-)
[ "$mode" = stream ] && args+=(--no-buffer -H 'accept: text/event-stream')
[ -n "${IDEMPOTENCY_KEY:-}" ] && args+=(-H "Idempotency-Key: $IDEMPOTENCY_KEY")

# The process substitution must be on curl's own command line: its fd lives only as long as that command.
printf '{"inputs":%s,"mode":"%s"}' "$inputs" "$mode" |
  curl "${args[@]}" -H @<(printf 'Authorization: Bearer %s\n' "$PAIFLOW_API_KEY")
echo
