/**
 * What the store keeps for chat apps (a published workflow people talk to at /chat/:slug): the app's settings live on
 * the workflow (`WorkflowRecord.chat`, set through PublishingStore.setPublishSettings); conversations and their
 * messages live here. Each assistant message names the run that answered it, its citations and the reader's feedback.
 * Implemented on PGlite and PostgreSQL (engine/store/prisma/chat-store.ts).
 */

/**
 * The chat app's settings as a workflow record carries them: what anyone who may read the workflow may see. Its
 * secrets (ChatAppSecrets) are stored beside them and read only with ChatStore.secretsOf, so that no presenter of a
 * workflow (GET /api/workflows/:id, exports …) can leak them.
 */
export interface ChatAppPublicSettings {
  enabled: boolean;
  title: string | null;
  welcome: string | null;
  suggestions: string[];
  access: 'public' | 'code';
  /** Sites that may show the chat page in a frame (the embed): `["*"]` any, `[]` none but PaiFlow itself. */
  embedOrigins: string[];
  /** Tokens of earlier turns a turn sends to the model (the latest that fit); null: CHAT_HISTORY_MAX_TOKENS. */
  historyMaxTokens: number | null;
}

export interface ChatAppSecrets {
  /** sha256 (hex) of the access code; null when access is public. */
  codeHash: string | null;
  /** Signs the page's chat sessions (HMAC-SHA256); replaced when the access code changes, which ends old sessions. */
  sessionSecret: string;
}

/** The chat app's settings as stored (one JSON value on the workflow): the access code only as its sha256. */
export type ChatAppSettings = ChatAppPublicSettings & ChatAppSecrets;

export interface ChatConversationRecord {
  id: string;
  workflowId: string;
  /** Who may read it: `session:<id>` (a chat page's browser) or `key:<API key id>`. */
  owner: string;
  title: string;
  createdAt: string;
  updatedAt: string;
}

export interface ChatCitation {
  /** "[1]", "[2]", … as the answer cites it. */
  citation: string;
  title: string;
  page: number | null;
  text: string;
  score: number;
  documentId: string | null;
}

export interface ChatFeedback {
  rating: 1 | -1;
  comment: string | null;
  at: string;
}

export interface ChatMessageRecord {
  id: string;
  conversationId: string;
  seq: number;
  role: 'user' | 'assistant';
  content: string;
  runId: string | null;
  citations: ChatCitation[];
  feedback: ChatFeedback | null;
  createdAt: string;
}

export interface NewChatMessage {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  runId?: string | null;
  citations?: ChatCitation[];
}

export interface ChatStore {
  /** The chat app's secrets of a workflow, or null when it has no chat app. */
  secretsOf(workflowId: string): Promise<ChatAppSecrets | null>;
  createConversation(c: {
    id: string;
    workflowId: string;
    owner: string;
    title: string;
  }): Promise<ChatConversationRecord>;
  /** The conversation of that workflow, or null (another workflow's is null too). */
  getConversation(workflowId: string, id: string): Promise<ChatConversationRecord | null>;
  /** Appends messages after the last one (seq max+1, …) in one transaction and touches the conversation. */
  appendMessages(conversationId: string, messages: NewChatMessage[]): Promise<ChatMessageRecord[]>;
  /** Sets the content, run and citations of a message written before its answer was known. */
  completeMessage(
    id: string,
    m: { content: string; runId: string | null; citations: ChatCitation[] },
  ): Promise<ChatMessageRecord | null>;
  /** The conversation's messages in order; with a range, those numbered `fromSeq` to `toSeq` (both included). */
  listMessages(conversationId: string, range?: { fromSeq: number; toSeq: number }): Promise<ChatMessageRecord[]>;
  /**
   * Deletes (with their messages) the least recently updated conversations of the workflow beyond the newest
   * `perOwner` of `owner` and the newest `perApp` of the workflow. Answers how many went.
   */
  pruneConversations(workflowId: string, owner: string, keep: { perOwner: number; perApp: number }): Promise<number>;
  /** A message of a conversation of that workflow (with its conversation's owner), or null. */
  getMessage(workflowId: string, id: string): Promise<(ChatMessageRecord & { owner: string }) | null>;
  /** Records (or replaces) the feedback on an assistant message. */
  setFeedback(id: string, feedback: { rating: 1 | -1; comment: string | null }): Promise<ChatMessageRecord | null>;
  /** The assistant message a run produced (to show its feedback on the run's page), or null. */
  messageOfRun(runId: string): Promise<ChatMessageRecord | null>;
  /**
   * The conversation's variables (name → value; engine/template/conversation-variables.ts): `{}` before any was
   * written, null when there is no such conversation.
   */
  variablesOf(conversationId: string): Promise<Record<string, unknown> | null>;
  /**
   * Stores `written` over the conversation's variables in one statement (each name replaced, the others kept), so two
   * turns that write different variables at once both keep theirs. A deleted conversation is left as it is.
   */
  writeVariables(conversationId: string, written: Record<string, unknown>): Promise<void>;
}
