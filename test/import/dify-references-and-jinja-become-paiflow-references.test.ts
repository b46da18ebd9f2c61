// Guarantees: Dify's {{#node.var#}} references become PaiFlow references to where the value is, and one without a
// place is left out and reported; a `{{` that Dify meant as text never opens a PaiFlow reference; in a Jinja2
// template the named variables become references, filters are left out, and statements or other expressions are kept
// as text (reported) without opening a reference.
import { describe, expect, it } from 'vitest';
import { rewriteDifyText, rewriteJinja, selectorsIn } from '@/lib/server/workflows/import/dify-refs';

const refs = {
  pathOf: ([node, variable, ...rest]: string[]) =>
    node === 'start' ? ['inputs', variable, ...rest].join('.') : node === 'llm' ? `llm.output.${variable}` : undefined,
};

describe('Dify references', () => {
  it('become PaiFlow references; unknown ones are left out and reported', () => {
    const missing: string[] = [];
    const out = rewriteDifyText(
      'Q: {{#start.question#}} A: {{#llm.text#}} T: {{#tool.text#}} {{not a dify ref}}',
      refs,
      (m) => missing.push(m),
    );
    expect(out).toBe('Q: {{inputs.question}} A: {{llm.output.text}} T:  { {not a dify ref}}');
    expect(missing).toEqual(['{{#tool.text#}}']);
  });

  it('put the context in for {{#context#}}, and list the selectors a text reads', () => {
    expect(rewriteDifyText('Use: {{#context#}}', refs, () => {}, '{{kb.output.context}}')).toBe(
      'Use: {{kb.output.context}}',
    );
    expect(selectorsIn('{{#1733.text#}} and {{#sys.query#}} {{#context#}}')).toEqual([
      ['1733', 'text'],
      ['sys', 'query'],
    ]);
  });
});

describe('Jinja2 templates', () => {
  const vars = new Map<string, string | undefined>([
    ['item', 'loop.output.item'],
    ['doc', 'http.output.body'],
    ['gone', undefined],
  ]);

  it('turn named variables into references and leave filters out', () => {
    const r = rewriteJinja("- {{ item | trim | upper }} by {{ doc.author['name'] }} {{gone}}{# note #}", vars);
    expect(r.text).toBe('- {{loop.output.item}} by {{http.output.body.author["name"]}} ');
    expect(r.filters).toEqual(['trim', 'upper']);
    expect(r.kept).toEqual([]);
  });

  it('keep statements and other expressions as text that opens no reference', () => {
    const r = rewriteJinja('{% for x in doc.items %}{{ x.title }}, {{ loop.index + 1 }}{% endfor %}', vars);
    expect(r.text).toBe('{% for x in doc.items %}{ x.title }, { loop.index + 1 }{% endfor %}');
    expect(r.text).not.toContain('{{');
    expect(r.kept).toEqual(['{% for x in doc.items %}', '{{ x.title }}', '{{ loop.index + 1 }}', '{% endfor %}']);
  });
});
