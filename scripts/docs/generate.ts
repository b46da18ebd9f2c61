/**
 * `npm run docs`: writes the generated pages of docs/ (configuration.md from engine/config/variables.ts, http-api.md
 * from the route files and the published API's OpenAPI document). `npm run docs -- --check` writes nothing and exits
 * 1 naming each page that is out of date (the tests in test/docs/ check the same).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { CONFIGURATION_DOC, renderConfigurationDoc } from './configuration';
import { HTTP_API_DOC, renderHttpApiDoc } from './http-api';

const PAGES: Array<[string, () => string | Promise<string>]> = [
  [CONFIGURATION_DOC, renderConfigurationDoc],
  [HTTP_API_DOC, renderHttpApiDoc],
];

async function main() {
  const check = process.argv.includes('--check');
  const stale: string[] = [];
  for (const [file, render] of PAGES) {
    const text = await render();
    let current = '';
    try {
      current = readFileSync(file, 'utf8');
    } catch {
      // not written yet
    }
    if (current === text) continue;
    stale.push(file);
    if (!check) writeFileSync(file, text);
  }
  if (check && stale.length) {
    console.error(`out of date: ${stale.join(', ')} (run \`npm run docs\`)`);
    process.exit(1);
  }
  console.log(stale.length ? `${check ? 'out of date' : 'wrote'}: ${stale.join(', ')}` : 'docs are up to date');
}

void main();
