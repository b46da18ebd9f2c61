/**
 * The offline speech synthesizer: espeak-ng compiled to WebAssembly, shipped inside the npm package `text2wav`
 * (its voices and dictionaries too: nothing is downloaded). Runs in the speech thread of the CPU pools
 * (engine/cpu/worker.mjs), never on the event loop.
 *
 * text2wav's own entry point passes the text as a command-line argument (a text starting with `-` would be read as
 * an option) and lets emscripten try a streaming compile that fails in Node and prints a warning on every call. So
 * this module drives its emscripten build directly: the WebAssembly module is compiled once per thread and
 * instantiated per call (`instantiateWasm`), the text is written to a file of the in-memory file system and read with
 * `-f`, and espeak's own console output is collected instead of printed.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PaiError } from '../errors';
import { fromAppRoot } from '../config/app-root';

export interface EspeakOptions {
  /** An espeak-ng voice: a language (`en`, `cmn`, …) with an optional `+variant` (`en+f3`). */
  voice: string;
  /** Words per minute (espeak's default is 175). */
  wordsPerMinute: number;
}

interface EmscriptenFs {
  writeFile(path: string, data: string): void;
  readFile(path: string): Uint8Array;
  unmount(path: string): void;
}

interface EspeakModule {
  arguments: string[];
  print(s: string): void;
  printErr(s: string): void;
  instantiateWasm(imports: WebAssembly.Imports, done: (i: WebAssembly.Instance) => void): object;
  preRun: Array<() => void>;
  postRun(): void;
  quit(status: number, e: unknown): void;
  onAbort(what: unknown): void;
  FS?: EmscriptenFs;
}

const VOICE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*(\+[A-Za-z0-9_-]{1,20})?$/;

let factory: ((m: EspeakModule) => void) | undefined;
let compiled: Promise<WebAssembly.Module> | undefined;

function load(): { factory: (m: EspeakModule) => void; compiled: Promise<WebAssembly.Module> } {
  if (!factory || !compiled) {
    const require = createRequire(fromAppRoot('package.json'));
    const js = require.resolve('text2wav/lib/espeak-ng.js');
    factory = require(js) as (m: EspeakModule) => void;
    compiled = WebAssembly.compile(readFileSync(path.join(path.dirname(js), 'espeak-ng.wasm')));
    compiled.catch(() => (compiled = undefined));
  }
  return { factory, compiled };
}

/** Speaks `text` and answers a WAV (22 050 Hz, 16-bit, mono). */
export async function espeakWav(text: string, o: EspeakOptions): Promise<Uint8Array> {
  if (!VOICE.test(o.voice))
    throw new PaiError('TTS_VOICE_INVALID', `"${o.voice.slice(0, 40)}" is not an espeak-ng voice name`, {
      path: 'config.voice',
    });
  const { factory: make, compiled: wasm } = load();
  const module = await wasm;
  const speed = String(Math.round(Math.min(450, Math.max(80, o.wordsPerMinute))));
  const output: string[] = [];
  return new Promise<Uint8Array>((resolve, reject) => {
    let failed: unknown;
    const m: EspeakModule = {
      arguments: ['-b', '1', '-v', o.voice, '-s', speed, '-w', '/out.wav', '-f', '/in.txt'],
      print: (s) => output.push(s),
      printErr: (s) => output.push(s),
      instantiateWasm(imports, done) {
        WebAssembly.instantiate(module, imports).then(done, reject);
        return {};
      },
      // Runs once the instance is ready, when the module has set m.FS (text2wav's post.js).
      preRun: [() => m.FS!.writeFile('/in.txt', text)],
      postRun() {
        try {
          if (failed !== undefined) throw failed;
          const wav = m.FS!.readFile('/out.wav');
          m.FS!.unmount('/usr/share');
          resolve(new Uint8Array(wav));
        } catch (e) {
          reject(synthError(e, output));
        }
      },
      quit: (status, e) => {
        failed = status === 0 ? undefined : (e ?? new Error(`exit ${status}`));
        if (failed) reject(synthError(failed, output));
      },
      onAbort: (what) => reject(synthError(what, output)),
    };
    make(m);
  });
}

function synthError(e: unknown, output: string[]): PaiError {
  const said = output.join(' ').trim().slice(0, 300);
  const why = e instanceof Error ? e.message : String(e);
  return new PaiError('TTS_OFFLINE_FAILED', `the offline synthesizer failed: ${said || why}`);
}
