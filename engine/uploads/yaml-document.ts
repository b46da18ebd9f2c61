/**
 * A user's YAML document (a Dify DSL export) as a plain value, read in a worker thread of the CPU pools
 * (parse-in-worker.ts) under limits checked while it is read: a first pass over the `yaml` package's lexer tokens
 * counts the values (scalars and flow collections) and the flow nesting and stops at the first past its limit — a
 * document nested 900,000 `[` deep is refused at the 257th, one of 30,000 small maps after a fraction of it — before
 * the parser builds anything. Only then is it parsed and converted (aliases capped, as a billion-laughs defence), and
 * the value's nesting checked again, which catches block (indentation) nesting the first pass cannot see.
 */
import { CST, Lexer, parseDocument } from 'yaml';
import { PaiError } from '../errors';
import { yamlTooDeep, yamlTooManyNodes } from './upload-errors';

export interface YamlLimits {
  /** Values: scalars and collections. */
  maxNodes: number;
  maxDepth: number;
}

/** Where the YAML is in the request (its errors' path), and the setting that raises the value limit, if any. */
export interface YamlPlace {
  path: string;
  setting?: string;
}

/** An import's `content` (a Dify DSL). */
const IMPORT_CONTENT: YamlPlace = { path: 'content', setting: 'IMPORT_MAX_YAML_NODES' };

/** The content does not parse: where it stops (the same error the importers give for bad YAML or JSON). */
function unreadable(why: string, line?: number, column?: number): PaiError {
  const where = line ? ` at line ${line}${column ? `, column ${column}` : ''}` : '';
  return new PaiError('IMPORT_UNREADABLE', `the YAML does not parse${where}: ${why}`, {
    path: 'content',
    ...(line ? { details: { line, column } } : {}),
  });
}

/** Throws at the first value past maxNodes or flow collection past maxDepth. */
export function checkYamlShape(source: string, limits: YamlLimits, place: YamlPlace = IMPORT_CONTENT): void {
  let nodes = 0;
  let depth = 0;
  let line = 1;
  for (const token of new Lexer().lex(source)) {
    switch (CST.tokenType(token)) {
      case 'newline':
        line++;
        break;
      case 'flow-map-start':
      case 'flow-seq-start':
        if (++depth > limits.maxDepth) throw yamlTooDeep(limits.maxDepth, { line, path: place.path });
        if (++nodes > limits.maxNodes) throw yamlTooManyNodes(limits.maxNodes, { line, ...place });
        break;
      case 'flow-map-end':
      case 'flow-seq-end':
        depth--;
        break;
      case 'scalar':
      case 'block-scalar-header':
      case 'alias':
        if (++nodes > limits.maxNodes) throw yamlTooManyNodes(limits.maxNodes, { line, ...place });
        break;
      default:
        // A scalar's text follows its marker as a token of its own, and may span lines.
        for (let i = token.indexOf('\n'); i >= 0; i = token.indexOf('\n', i + 1)) line++;
    }
  }
}

/** The deepest nesting of a plain value, walked without recursion; stops as soon as it passes `limit`. */
function depthOver(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (!v || typeof v !== 'object') continue;
    if (d + 1 > limit) return true;
    for (const child of Object.values(v)) stack.push([child, d + 1]);
  }
  return false;
}

export function readYaml(source: string, limits: YamlLimits): unknown {
  checkYamlShape(source, limits);
  let value: unknown;
  try {
    const doc = parseDocument(source, { uniqueKeys: false });
    const err = doc.errors[0];
    if (err) {
      const why = err.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
      throw unreadable(why, err.linePos?.[0]?.line, err.linePos?.[0]?.col);
    }
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    if (e instanceof PaiError) throw e;
    // Block nesting deep enough to overflow the parser's stack: a limit, not a crash.
    if (e instanceof RangeError) throw yamlTooDeep(limits.maxDepth, IMPORT_CONTENT);
    throw unreadable((e as Error).message);
  }
  if (depthOver(value, limits.maxDepth)) throw yamlTooDeep(limits.maxDepth, IMPORT_CONTENT);
  return value;
}
