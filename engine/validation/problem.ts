/** One thing wrong with an input: a stable code, a message, a JSON path into it (`nodes[3].data.config.model`). */
export interface Problem {
  code: string;
  message: string;
  path: string;
  nodeIds?: string[];
  /** Machine-readable specifics; for UNKNOWN_KEY the key and, when a known key is close, the suggestion. */
  details?: UnknownKeyDetails;
}

/** `details` of an UNKNOWN_KEY problem. */
export interface UnknownKeyDetails {
  key: string;
  suggestion?: string;
}
