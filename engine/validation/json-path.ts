/** Converts a zod issue path into our JSON path notation: `nodes[3].data.config.model`. */
export function toJsonPath(path: ReadonlyArray<PropertyKey>, base = ''): string {
  let out = base;
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out ? `.${String(seg)}` : String(seg);
  }
  return out;
}
