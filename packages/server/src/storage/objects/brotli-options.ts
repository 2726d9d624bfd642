import zlib from 'node:zlib';

/**
 * How update assets are compressed with brotli: once per asset, at upload, and then served for a
 * year, so the CPU is spent, up to a point. One rule for the stored forms (asset-encodings.ts) and
 * for what a bundle patch is measured against (ota/patches/patch-child.ts).
 */
export const brotliOptions = (bytes: number): zlib.BrotliOptions => ({
  params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: bytes <= 4 * 1024 * 1024 ? 11 : 9,
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes,
  },
});
