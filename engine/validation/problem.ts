/** One thing wrong with an input: a stable code, a message, a JSON path into it (`nodes[3].data.config.model`). */
export interface Problem {
  code: string;
  message: string;
  path: string;
  nodeIds?: string[];
  /**
   * Machine-readable specifics; for UNKNOWN_KEY the key and, when a known key is close, the suggestion; for
   * NO_END_ON_PATH the branch that leads nowhere (none: the node itself is the last of its path).
   */
  details?: ProblemDetails;
}

/** The specifics a problem may carry (each code uses its own: UnknownKeyDetails, NoEndDetails). */
export type ProblemDetails = Partial<UnknownKeyDetails> & NoEndDetails;

/** `details` of a NO_END_ON_PATH warning (graph/paths-without-end.ts). */
export interface NoEndDetails {
  branch?: string;
}

/** `details` of an UNKNOWN_KEY problem. */
export interface UnknownKeyDetails {
  key: string;
  suggestion?: string;
}
