/**
 * The offline demo's "generated" image: a deterministic pattern (two-colour gradient with concentric rings and a
 * diagonal band) derived from the sha256 of the prompt and the image's index — the same prompt always gives the same
 * PNG. It is not a picture of the prompt, and the node's output says so (`demo: true`).
 */
import { createHash } from 'node:crypto';
import { encodePng } from './png';

export function demoImagePng(prompt: string, index: number, width: number, height: number): Uint8Array {
  const h = createHash('sha256').update(`${index}\n${prompt}`).digest();
  const a = [h[0], h[1], h[2]];
  const b = [h[3], h[4], h[5]];
  const cx = (h[6] / 255) * width;
  const cy = (h[7] / 255) * height;
  const ring = 8 + (h[8] % 24);
  const band = 0.15 + (h[9] / 255) * 0.2;
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const t = (x / Math.max(1, width - 1) + y / Math.max(1, height - 1)) / 2;
      const r = Math.hypot(x - cx, y - cy);
      const shade = Math.floor(r / ring) % 2 === 0 ? 1 : 0.82;
      const inBand = Math.abs(x / width - y / height) < band ? 0.9 : 1;
      const o = (y * width + x) * 3;
      for (let c = 0; c < 3; c++) rgb[o + c] = Math.round((a[c] * (1 - t) + b[c] * t) * shade * inBand);
    }
  return encodePng(width, height, rgb);
}
