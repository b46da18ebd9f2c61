/**
 * Chinese word segmentation for the embedded BM25 index: jieba (`@node-rs/jieba`, a Rust build whose binary and
 * dictionary ship inside the npm package — nothing is downloaded) in its search mode (cut_for_search) with its HMM for
 * words missing from the dictionary (names such as 王芳 stay one word).
 *
 * Search mode gives each word and the dictionary words inside it (数据库 → 数据, 据库, 数据库), so a differently worded
 * query still meets the document (数据/数据库) while a whole word match counts more. On the retrieval bench's real
 * Chinese guide (docs/knowledge.md) it matched precise words + every character of each word on heading queries
 * (MRR 0.467 both) and beat it on paraphrases (0.549 vs 0.532), with fewer terms per chunk.
 *
 * Building the segmenter reads its 5 MB dictionary and costs about a second and ~55 MB, so it is built once per
 * thread (a worker thread has its own module scope), lazily, on the first Han text: a process that only ever sees
 * English never pays for it. The native addon is required at that moment, not imported, for the same reason.
 */
import { createRequire } from 'node:module';

type JiebaModule = typeof import('@node-rs/jieba');
type Segmenter = {
  cut(sentence: string, hmm?: boolean): string[];
  cutForSearch(sentence: string, hmm?: boolean): string[];
};

let segmenter: Segmenter | undefined;

function jieba(): Segmenter {
  if (!segmenter) {
    // Loaded on the first Chinese text only (a native addon and a 5 MB dictionary). Requiring a package by name works
    // in Next's bundle because it is external (next.config.mjs); resolving a path through it would not.
    // eslint-disable-next-line no-restricted-syntax
    const load = createRequire(import.meta.url);
    const { Jieba } = load('@node-rs/jieba') as JiebaModule;
    const { dict } = load('@node-rs/jieba/dict') as { dict: Uint8Array };
    segmenter = Jieba.withDict(dict);
  }
  return segmenter;
}

/**
 * Function words and question words of help-centre style questions ("如何…", "…吗", "我的…", "怎么办"): like the English
 * stop list (analyzer.ts) they match nearly every chunk and would drown the one content word that matters. Kept short
 * on purpose: a content word wrongly listed here could never be found.
 */
const CHINESE_STOP_WORDS: ReadonlySet<string> = new Set([
  '的',
  '了',
  '着',
  '过',
  '吗',
  '呢',
  '吧',
  '啊',
  '呀',
  '么',
  '是',
  '在',
  '和',
  '与',
  '及',
  '或',
  '也',
  '都',
  '就',
  '还',
  '又',
  '而',
  '把',
  '被',
  '给',
  '对',
  '从',
  '向',
  '将',
  '让',
  '我',
  '你',
  '您',
  '他',
  '她',
  '它',
  '我们',
  '你们',
  '他们',
  '她们',
  '它们',
  '这',
  '那',
  '这个',
  '那个',
  '什么',
  '怎么',
  '怎样',
  '怎么办',
  '如何',
  '为什么',
  '哪里',
  '哪儿',
  '多少',
  '能',
  '能不能',
  '可以',
  '可不可以',
  '要',
  '想',
  '请',
  '请问',
  '一下',
  '一个',
  '有',
  '没有',
  '不',
]);

/** A run of Han characters → its words and their sub-words, without stop words (duplicates kept: BM25 counts them). */
export function segmentHan(run: string, out: string[]): void {
  for (const word of jieba().cutForSearch(run, true)) if (!CHINESE_STOP_WORDS.has(word)) out.push(word);
}
