#!/usr/bin/env bash
# Runs the Elasticsearch KnowledgeStore suites against a real, throw-away Elasticsearch from docker-compose.yml:
#   scripts/es-real-cluster-tests.sh es8     # 8.19.x on 127.0.0.1:9208
#   scripts/es-real-cluster-tests.sh es9     # 9.x    on 127.0.0.1:9209
#   scripts/es-real-cluster-tests.sh es8 --keep   # leave the server running afterwards
# The suites run twice: on the Basic licence the cluster starts with (client-side RRF), then after
# POST /_license/start_trial (the server-side rrf retriever). Each run uses its own random index prefix.
# Needs Docker with the compose plugin (or docker-compose); the image is pulled on first use.
set -euo pipefail

profile="${1:-}"
keep="${2:-}"
case "$profile" in
  es8) port=9208 ;;
  es9) port=9209 ;;
  *)
    echo "usage: $0 es8|es9 [--keep]" >&2
    exit 2
    ;;
esac

cd "$(dirname "$0")/.."
if docker compose version >/dev/null 2>&1; then
  compose=(docker compose)
elif command -v docker-compose >/dev/null 2>&1; then
  compose=(docker-compose)
else
  echo "Docker Compose is not available (docker compose or docker-compose)" >&2
  exit 1
fi

url="http://127.0.0.1:${port}"
cleanup() {
  if [ "$keep" != "--keep" ]; then "${compose[@]}" --profile "$profile" rm -sf "$profile" >/dev/null; fi
}
trap cleanup EXIT

"${compose[@]}" --profile "$profile" up -d "$profile"
echo "waiting for Elasticsearch at $url …"
for _ in $(seq 1 120); do
  if curl -fs "$url/_cluster/health?wait_for_status=yellow&timeout=1s" >/dev/null 2>&1; then break; fi
  sleep 2
done
version="$(curl -fs "$url" | sed -n 's/.*"number" *: *"\([^"]*\)".*/\1/p' | head -1)"
echo "Elasticsearch ${version:-?} is up"

suites=(
  test/knowledge/elasticsearch-speaks-to-8-and-9.test.ts
  test/knowledge/elasticsearch-single-chinese-characters-match.test.ts
)

echo "== Basic licence (client-side RRF)"
ELASTICSEARCH_URL="$url" npx vitest run "${suites[@]}"

echo "== trial licence (server-side RRF)"
curl -fs -X POST "$url/_license/start_trial?acknowledge=true" >/dev/null || true
curl -fs "$url/_license" | grep -q '"type" *: *"trial"' || {
  echo "could not start the trial licence (already used on this cluster?)" >&2
  exit 1
}
ELASTICSEARCH_URL="$url" npx vitest run "${suites[@]}"
