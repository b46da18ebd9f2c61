/**
 * The JavaScript that runs inside each sandbox before the user's code: it installs `console` (each call hands one
 * formatted line to the host function it is given) and returns the three functions the host calls afterwards —
 * `run` (main on the parsed input, as a promise), `toJson` (the result as JSON text) and `describe` (a thrown value
 * as JSON text). It keeps its own references to the built-ins it uses, taken before the user's code can replace
 * them; what user code changes later (a prototype, a `toJSON`) can only change its own output, which the host checks
 * again (types, lengths, JSON.parse) — nothing the guest returns is trusted.
 */
import { CODE_MAX_LOG_LINE_CHARS } from './limits';

/** File name of the prelude in guest stack traces (the user's code is `main.js`). */
export const PRELUDE_FILE = 'paiflow-prelude.js';

export const PRELUDE_SOURCE = `(function (hostLog) {
  'use strict';
  var stringify = JSON.stringify;
  var parse = JSON.parse;
  var toText = String;
  var apply = Reflect.apply;
  var slice = String.prototype.slice;
  var join = Array.prototype.join;
  var PromiseCtor = Promise;
  var resolve = Promise.resolve;
  var ErrorCtor = Error;
  var MAX_LINE = ${CODE_MAX_LOG_LINE_CHARS};

  function cut(text, max) {
    return text.length > max ? apply(slice, text, [0, max]) + '\\u2026' : text;
  }
  function show(v) {
    if (typeof v === 'string') return v;
    if (v === undefined) return 'undefined';
    if (typeof v === 'function') return '[function]';
    if (typeof v === 'bigint' || typeof v === 'symbol') return toText(v);
    if (v instanceof ErrorCtor) return toText(v.name) + ': ' + toText(v.message);
    try {
      var s = stringify(v);
      if (typeof s === 'string') return s;
    } catch (e) {}
    try {
      return toText(v);
    } catch (e) {
      return '[unprintable]';
    }
  }
  function logger(level) {
    return function () {
      var parts = [];
      for (var i = 0; i < arguments.length; i++) parts[i] = cut(show(arguments[i]), MAX_LINE);
      hostLog(level, cut(apply(join, parts, [' ']), MAX_LINE));
    };
  }
  var console = {
    log: logger('log'),
    info: logger('info'),
    warn: logger('warn'),
    error: logger('error'),
    debug: logger('log'),
  };
  Object.defineProperty(globalThis, 'console', { value: console, writable: true, configurable: true });

  function describe(e) {
    var out = { type: typeof e };
    try {
      if (e !== null && (typeof e === 'object' || typeof e === 'function')) {
        if (typeof e.name === 'string') out.name = cut(e.name, 200);
        out.message = typeof e.message === 'string' ? cut(e.message, 2000) : cut(show(e), 2000);
        if (typeof e.stack === 'string') out.stack = cut(e.stack, 4000);
        if (typeof e.lineNumber === 'number') out.line = e.lineNumber;
        if (typeof e.columnNumber === 'number') out.column = e.columnNumber;
        if (typeof e.fileName === 'string') out.file = cut(e.fileName, 200);
      } else {
        out.message = cut(show(e), 2000);
      }
    } catch (x) {
      out.message = '[a value that could not be read]';
    }
    return stringify(out);
  }

  return {
    run: function (main, inputJson) {
      return apply(resolve, PromiseCtor, [main(parse(inputJson))]);
    },
    toJson: function (value) {
      var s = stringify(value);
      return typeof s === 'string' ? s : undefined;
    },
    describe: describe,
  };
})`;
