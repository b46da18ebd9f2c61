/**
 * The template gallery's list, in the order it shows them. Adding a template: one file beside this one exporting a
 * WorkflowTemplate, one line below. test/api/templates-every-template-runs-offline.test.ts then runs it.
 */
import { AGENT_TEAM_TEMPLATE } from './agent-team';
import { CHAT_ASSISTANT_TEMPLATE } from './chat-assistant';
import { APPROVAL_BEFORE_HTTP_TEMPLATE } from './approval-before-http';
import { DRAFT_REVIEW_LOOP_TEMPLATE } from './draft-review-loop';
import { RAG_QA_TEMPLATE } from './rag-qa';
import { RESEARCH_AGENT_TEMPLATE } from './research-agent';
import { SUPPORT_TRIAGE_TEMPLATE } from './support-triage';
import { TEXT_TO_PODCAST_TEMPLATE } from './text-to-podcast';
import type { WorkflowTemplate } from './types';
import { WEBHOOK_SUMMARIZE_POST_TEMPLATE } from './webhook-summarize-post';

export const TEMPLATES: readonly WorkflowTemplate[] = [
  RAG_QA_TEMPLATE,
  CHAT_ASSISTANT_TEMPLATE,
  SUPPORT_TRIAGE_TEMPLATE,
  DRAFT_REVIEW_LOOP_TEMPLATE,
  AGENT_TEAM_TEMPLATE,
  RESEARCH_AGENT_TEMPLATE,
  WEBHOOK_SUMMARIZE_POST_TEMPLATE,
  APPROVAL_BEFORE_HTTP_TEMPLATE,
  TEXT_TO_PODCAST_TEMPLATE,
];

export function findTemplate(id: string): WorkflowTemplate | undefined {
  return TEMPLATES.find((t) => t.id === id);
}

export { localizedGraph, pick } from './localize';
export * from './types';
