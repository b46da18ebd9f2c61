// Guarantees: the app ships a favicon — app/icon.svg, which Next.js serves and links from every page's <head> — as a
// square SVG that names PaiFlow, so a browser tab shows the PaiFlow mark instead of a 404 and a blank icon.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

describe('the favicon', () => {
  it('is a square SVG of the PaiFlow mark', () => {
    const svg = readFileSync(path.join(process.cwd(), 'app', 'icon.svg'), 'utf8');
    expect(svg.trimStart().startsWith('<svg')).toBe(true);
    expect(svg).toContain('xmlns="http://www.w3.org/2000/svg"');
    const [, , w, h] = /viewBox="([\d.\s-]+)"/.exec(svg)![1].trim().split(/\s+/).map(Number);
    expect(w).toBe(h);
    expect(svg).toMatch(/<title>PaiFlow<\/title>/);
    // Balanced: every opened element is closed (a truncated file would render nothing).
    const opened = (svg.match(/<(?!\/|!--)[a-z]+[^>]*[^/]>/g) ?? []).length;
    const closed = (svg.match(/<\/[a-z]+>/g) ?? []).length;
    expect(opened).toBe(closed);
  });
});
