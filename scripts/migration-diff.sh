#!/usr/bin/env bash
# Writes the SQL for a schema change, offline. The Prisma 7 CLI downloads a schema engine and fails without network,
# so we use Prisma 6.19.3's CLI (JS engine + driver adapter) in a scratch folder to diff two schemas.
# Usage: scripts/migration-diff.sh <from-schema.prisma|empty> prisma/schema.prisma > prisma/migrations/000N_name/migration.sql
set -euo pipefail
FROM=${1:?from schema or "empty"}; TO=${2:?to schema}
WORK=$(mktemp -d)
( cd "$WORK" && npm init -y >/dev/null && npm i prisma@6.19.3 @prisma/adapter-pg@6.19.3 pg >/dev/null 2>&1 )
prep() { sed -e 's/provider   = "prisma-client"/provider = "prisma-client"/' -e 's#^\(\s*output\s*=\).*#\1 "./gen"#' \
  -e 's/^  provider = "postgresql"/  provider = "postgresql"\n  url = "postgresql:\/\/x@127.0.0.1\/x"/' "$1" > "$2"; }
prep "$TO" "$WORK/to.prisma"
FROMARG=(--from-empty)
if [ "$FROM" != empty ]; then prep "$FROM" "$WORK/from.prisma"; FROMARG=(--from-schema-datamodel "$WORK/from.prisma"); fi
cat > "$WORK/prisma.config.ts" <<'CFG'
import { defineConfig } from 'prisma/config';
import { PrismaPg } from '@prisma/adapter-pg';
export default defineConfig({ experimental: { adapter: true }, engine: 'js', schema: 'to.prisma',
  adapter: async () => new PrismaPg({ connectionString: 'postgresql://postgres@127.0.0.1:5432/postgres' }) } as any);
CFG
cd "$WORK" && PRISMA_CLI_QUERY_ENGINE_TYPE=client PRISMA_QUERY_ENGINE_LIBRARY=/bin/true CHECKPOINT_DISABLE=1 \
  npx prisma migrate diff "${FROMARG[@]}" --to-schema-datamodel to.prisma --script | grep -v 'CREATE SCHEMA'
