-- One spelling per concept (issue 32): a node's provider settings say `baseUrl`, as credentials and the rest of the
-- API do, no longer `baseURL`; node configs are strict now, so the old key would be refused as unknown. Stored graphs
-- (drafts, published versions, and runs, which a resume reads) are rewritten. Only the four places a provider object
-- lives are touched — `data.config.provider` and the multi-agent roles' `data.config.{planner,worker,reviewer}.provider`
-- — never a `baseURL` that is data (pinned outputs, free-form values). An old `baseURL` wins over a `baseUrl` beside
-- it: the old schema dropped `baseUrl` silently, so `baseURL` was the one in effect.

CREATE FUNCTION "paiflow_0014_provider"(node JSONB, loc TEXT[]) RETURNS JSONB LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN jsonb_typeof(node #> loc) = 'object' AND (node #> loc) -> 'baseURL' IS NOT NULL
      THEN jsonb_set(node, loc, ((node #> loc) - 'baseURL') || jsonb_build_object('baseUrl', (node #> loc) -> 'baseURL'))
    ELSE node
  END
$$;

CREATE FUNCTION "paiflow_0014_graph"(graph JSONB) RETURNS JSONB LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN jsonb_typeof(graph -> 'nodes') = 'array' THEN jsonb_set(graph, '{nodes}', COALESCE((
      SELECT jsonb_agg(
        "paiflow_0014_provider"("paiflow_0014_provider"("paiflow_0014_provider"("paiflow_0014_provider"(
          n, '{data,config,provider}'), '{data,config,planner,provider}'), '{data,config,worker,provider}'),
          '{data,config,reviewer,provider}')
        ORDER BY i)
      FROM jsonb_array_elements(graph -> 'nodes') WITH ORDINALITY AS e(n, i)
    ), '[]'::jsonb))
    ELSE graph
  END
$$;

UPDATE "workflows" SET "graph" = "paiflow_0014_graph"("graph") WHERE "graph"::text LIKE '%"baseURL"%';
UPDATE "workflow_versions" SET "graph" = "paiflow_0014_graph"("graph") WHERE "graph"::text LIKE '%"baseURL"%';
UPDATE "runs" SET "graph" = "paiflow_0014_graph"("graph") WHERE "graph"::text LIKE '%"baseURL"%';

DROP FUNCTION "paiflow_0014_graph"(JSONB);
DROP FUNCTION "paiflow_0014_provider"(JSONB, TEXT[]);
