/** `npx tsx test/i18n/scan-cli.ts [folder …]`: the untranslated UI strings left, by file (for people translating). */
import path from 'node:path';
import { scanUi } from './ui-string-scan';

const dirs = process.argv.slice(2).map((d) => path.relative(path.resolve(__dirname, '../..'), path.resolve(d)));
const { findings } = scanUi(dirs.length ? dirs : undefined);
for (const f of findings) console.log(`${f.file}:${f.line}  [${f.kind}]  ${f.text.slice(0, 100)}`);
console.log(`${findings.length} untranslated string(s)`);
