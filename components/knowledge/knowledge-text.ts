/**
 * The knowledge page's words for the helpers outside components (upload-errors.ts, knowledge-counts.ts): they take
 * the page's translator (`useTranslations('knowledge')`), and without one (tests, scripts) speak English from the
 * same message file, so both read the words from messages/<locale>/knowledge.json.
 */
import { createTranslator } from 'next-intl';
import en from '@/messages/en/knowledge.json';

/** A translator of the `knowledge` namespace: `t('errors.EMPTY_DOCUMENT')`, `t('counts', { documents, chunks })`. */
export type KnowledgeT = (key: string, values?: Record<string, string | number>) => string;

const english = createTranslator({ locale: 'en', messages: { knowledge: en }, namespace: 'knowledge' });

export const englishKnowledge: KnowledgeT = (key, values) => english(key as never, values as never);
