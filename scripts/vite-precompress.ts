import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** The files a browser loads as text and the server sends precompressed (routes/built-app.ts). */
const COMPRESSED = /\.(?:js|mjs|css)$/;

/** The encodings written beside each file, by the extension @fastify/static's preCompressed looks for. */
const ENCODINGS: ReadonlyArray<readonly [extension: string, encode: (bytes: Buffer) => Promise<Buffer>]> = [
  [
    '.br',
    (bytes) =>
      brotli(bytes, {
        params: {
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      }),
  ],
  ['.gz', (bytes) => gzipped(bytes, { level: constants.Z_BEST_COMPRESSION })],
];

/**
 * Writes `<file>.br` and `<file>.gz` beside every JavaScript and CSS file of a Vite build, from the
 * bytes as written (after every other plugin), at the highest levels: compressed once per build,
 * never per request. A form no smaller than the file is not written, so the server falls back to
 * the file itself. Shared by the web funnel and the release console.
 */
export function precompress(): Plugin {
  return {
    name: 'ferry-precompress',
    apply: 'build',
    enforce: 'post',
    async writeBundle(output, bundle) {
      const dir = output.dir ?? path.dirname(output.file ?? '');
      const files = Object.keys(bundle).filter((fileName) => COMPRESSED.test(fileName));
      await Promise.all(
        files.map(async (fileName) => {
          const file = path.join(dir, fileName);
          const bytes = await readFile(file);
          for (const [extension, encode] of ENCODINGS) {
            const encoded = await encode(bytes);
            if (encoded.length < bytes.length) await writeFile(`${file}${extension}`, encoded);
          }
        }),
      );
    },
  };
}
