-- One pause mechanism (issue 34): a human-input node pauses like a tool approval or a breakpoint, with its answer
-- stored beside its node checkpoint (`node_checkpoints`), on both engines. LangGraph keeps no checkpoints of its own
-- any more, so the tables its PostgresSaver created go. A run that was waiting on a human-input node before this
-- upgrade is still answered: the answer is stored beside the node's checkpoint and the node runs again from the
-- run's snapshots.
DROP TABLE IF EXISTS "checkpoint_writes";
DROP TABLE IF EXISTS "checkpoint_blobs";
DROP TABLE IF EXISTS "checkpoints";
DROP TABLE IF EXISTS "checkpoint_migrations";
