/** The workspace that data from before accounts (and single-workspace setups) belongs to. */
export const DEFAULT_WORKSPACE_ID = 'ws_default';
