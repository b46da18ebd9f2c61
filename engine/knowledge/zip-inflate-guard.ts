/**
 * Refuses a zip (a .docx) that would inflate to more than a limit, before JSZip (inside mammoth) opens it. JSZip
 * inflates each entry whole into memory that a worker's resourceLimits do not cover, so a 300 KB entry of zeros
 * would become 300 MB there. This reads the central directory as JSZip does — the last end-of-central-directory
 * record, then entries while their signature follows — and refuses what it would read differently or what cannot
 * be checked (zip64, data before or inside the directory, spanned or encrypted archives, methods other than stored
 * and deflate). It then checks the declared sizes (cheap, before inflating anything) and counts what every entry
 * really inflates to (a header may lie; overlapping entries count each time), stopping at the limit.
 */
import { PaiError } from '../errors';
import { inflatedSize } from './inflate-counter';

const EOCD_SIG = 0x06054b50;
const CENTRAL_SIG = 0x02014b50;
const LOCAL_SIG = 0x04034b50;
const EOCD_SIZE = 22;
const CENTRAL_SIZE = 46;
const LOCAL_SIZE = 30;
/** A Word document has tens of parts; thousands of (empty) entries are only a way to make the check slow. */
export const MAX_ZIP_ENTRIES = 10_000;

export interface ZipEntry {
  name: string;
  method: 0 | 8;
  /** Where its compressed bytes are in the archive. */
  dataStart: number;
  dataEnd: number;
  declaredSize: number;
}

function unreadable(what: string, reason: string): PaiError {
  return new PaiError('DOCUMENT_PARSE_FAILED', `${what} could not be read: ${reason}`);
}

function inflatedTooLarge(what: string, max: number): PaiError {
  return new PaiError(
    'DOCUMENT_INFLATED_TOO_LARGE',
    `${what} inflates to more than ${max} bytes; the limit is ${max} (DOCUMENT_MAX_INFLATED_BYTES)`,
  );
}

/** The entries of the central directory, or DOCUMENT_PARSE_FAILED for anything JSZip might read otherwise. */
export function readZipDirectory(zip: Buffer, what = 'the archive'): ZipEntry[] {
  const bad = (reason: string) => unreadable(what, reason);
  let eocd = -1;
  for (let i = zip.length - EOCD_SIZE; i >= Math.max(0, zip.length - EOCD_SIZE - 0xffff); i--)
    if (zip.readUInt32LE(i) === EOCD_SIG) {
      eocd = i;
      break;
    }
  if (eocd < 0) throw bad('it is not a zip archive (no end of central directory)');
  const disk = zip.readUInt16LE(eocd + 4);
  const dirDisk = zip.readUInt16LE(eocd + 6);
  const count = zip.readUInt16LE(eocd + 10);
  const dirSize = zip.readUInt32LE(eocd + 12);
  const dirOffset = zip.readUInt32LE(eocd + 16);
  if (count === 0xffff || dirSize === 0xffffffff || dirOffset === 0xffffffff)
    throw bad('zip64 archives are not supported');
  if (disk !== 0 || dirDisk !== 0) throw bad('spanned archives are not supported');
  if (dirOffset + dirSize !== eocd) throw bad('the central directory is not where the archive says it is');
  if (count > MAX_ZIP_ENTRIES) throw bad(`it has ${count} entries; at most ${MAX_ZIP_ENTRIES} are read`);

  const entries: ZipEntry[] = [];
  let pos = dirOffset;
  while (pos + 4 <= eocd && zip.readUInt32LE(pos) === CENTRAL_SIG) {
    if (pos + CENTRAL_SIZE > eocd) throw bad('a central directory entry is cut off');
    const flags = zip.readUInt16LE(pos + 8);
    const method = zip.readUInt16LE(pos + 10);
    const compressed = zip.readUInt32LE(pos + 20);
    const declaredSize = zip.readUInt32LE(pos + 24);
    const nameLength = zip.readUInt16LE(pos + 28);
    const extraLength = zip.readUInt16LE(pos + 30);
    const commentLength = zip.readUInt16LE(pos + 32);
    const local = zip.readUInt32LE(pos + 42);
    const next = pos + CENTRAL_SIZE + nameLength + extraLength + commentLength;
    if (next > eocd) throw bad('a central directory entry is cut off');
    const name = zip.toString('utf8', pos + CENTRAL_SIZE, pos + CENTRAL_SIZE + nameLength);
    if (flags & 1) throw bad(`"${name}" is encrypted`);
    if (method !== 0 && method !== 8) throw bad(`"${name}" uses compression method ${method}`);
    if (compressed === 0xffffffff || declaredSize === 0xffffffff || local === 0xffffffff)
      throw bad('zip64 archives are not supported');
    if (local + LOCAL_SIZE > dirOffset || zip.readUInt32LE(local) !== LOCAL_SIG)
      throw bad(`the data of "${name}" is missing`);
    const dataStart = local + LOCAL_SIZE + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const dataEnd = dataStart + compressed;
    if (dataEnd > dirOffset) throw bad(`the data of "${name}" is cut off`);
    entries.push({ name, method, dataStart, dataEnd, declaredSize });
    pos = next;
  }
  if (entries.length !== count || pos !== eocd)
    throw bad(`the central directory lists ${count} entries but holds ${entries.length}`);
  return entries;
}

/**
 * Throws DOCUMENT_INFLATED_TOO_LARGE (413) when the archive's entries, all together, declare or really inflate to
 * more than `max` bytes, and DOCUMENT_PARSE_FAILED (422) when it is not a zip this can check. `what` names the file
 * in messages ("the .docx"). Returns the entries.
 */
export async function checkZipInflatedSize(bytes: Uint8Array, max: number, what = 'the archive'): Promise<ZipEntry[]> {
  const zip = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const entries = readZipDirectory(zip, what);
  let declared = 0;
  for (const e of entries) {
    declared += e.declaredSize;
    if (declared > max) throw inflatedTooLarge(what, max);
  }
  let total = 0;
  for (const e of entries) {
    const data = zip.subarray(e.dataStart, e.dataEnd);
    total += e.method === 0 ? data.length : await inflatedSize(data, max - total, { raw: true });
    if (total > max) throw inflatedTooLarge(what, max);
  }
  return entries;
}
