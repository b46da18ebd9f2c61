/**
 * About how many tokens a text costs a chat model, without its tokenizer (each provider has its own): a CJK character
 * is about one token, other text about four characters a token, and each message some framing. It errs high for
 * English and about right for Chinese, which is the safe side for fitting a context window.
 */

/** Han, kana, hangul and CJK punctuation: roughly a token each. */
const WIDE = /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/g;
/** What a chat message's role and separators cost beside its content. */
export const MESSAGE_OVERHEAD_TOKENS = 4;

export function estimateTokens(text: string): number {
  const wide = text.match(WIDE)?.length ?? 0;
  return wide + Math.ceil((text.length - wide) / 4);
}

/** A chat message's cost: its content and its framing. */
export const messageTokens = (content: string) => estimateTokens(content) + MESSAGE_OVERHEAD_TOKENS;
