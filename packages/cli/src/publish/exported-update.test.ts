import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  asset,
  bundle,
  type SyntheticExport,
  sha256,
  writeSyntheticExport,
} from '../../test/support/synthetic-export.js';
import { readExportedUpdate } from './exported-update.js';

const made: SyntheticExport[] = [];
const exportOf = (...args: Parameters<typeof writeSyntheticExport>) => {
  const result = writeSyntheticExport(...args);
  made.push(result);
  return result;
};
afterEach(() => {
  for (const m of made.splice(0)) m.remove();
});

const writeMetadata = (dir: string, metadata: unknown) =>
  fs.writeFileSync(path.join(dir, 'metadata.json'), typeof metadata === 'string' ? metadata : JSON.stringify(metadata));

describe('readExportedUpdate', () => {
  it('describes each platform: hashes, Metro keys, content types and extensions', async () => {
    const png = asset('png');
    const ios = bundle('ios');
    const exported = exportOf({ ios: { bundle: ios, assets: [png, asset('otf'), asset('')] } });
    const [platform] = await readExportedUpdate(exported.dir, ['ios']);
    expect(platform?.launchAsset).toMatchObject({
      relativePath: ios.path,
      hash: sha256(ios.content),
      contentType: 'application/javascript',
      fileExtension: '.bundle',
      size: ios.content.length,
    });
    expect(platform?.assets[0]).toMatchObject({
      relativePath: png.path,
      hash: sha256(png.content),
      key: png.path.slice('assets/'.length),
      contentType: 'image/png',
      fileExtension: '.png',
    });
    expect(platform?.assets[1]).toMatchObject({ contentType: 'font/otf', fileExtension: '.otf' });
    expect(platform?.assets[2]).toMatchObject({ contentType: 'application/octet-stream' });
    expect(platform?.assets[2]?.fileExtension).toBeUndefined();
  });

  it('fails when metadata.json is missing, unparsable or not an export', async () => {
    const exported = exportOf({ ios: { bundle: bundle('ios'), assets: [] } });
    fs.rmSync(path.join(exported.dir, 'metadata.json'));
    await expect(readExportedUpdate(exported.dir, ['ios'])).rejects.toThrow(/metadata.json is missing/);
    writeMetadata(exported.dir, '{not json');
    await expect(readExportedUpdate(exported.dir, ['ios'])).rejects.toThrow(/not valid JSON/);
    writeMetadata(exported.dir, { version: 0, bundler: 'metro', fileMetadata: { ios: { assets: [] } } });
    await expect(readExportedUpdate(exported.dir, ['ios'])).rejects.toThrow(/fileMetadata.ios.bundle/);
  });

  it('fails when a requested platform was not exported', async () => {
    const exported = exportOf({ ios: { bundle: bundle('ios'), assets: [] } });
    await expect(readExportedUpdate(exported.dir, ['ios', 'android'])).rejects.toThrow(/no android bundle.*lists ios/);
  });

  it('lists every missing file', async () => {
    const a = asset('png');
    const b = asset('png');
    const exported = exportOf({ android: { bundle: bundle('android'), assets: [a, b] } });
    fs.rmSync(path.join(exported.dir, a.path));
    fs.rmSync(path.join(exported.dir, b.path));
    await expect(readExportedUpdate(exported.dir, ['android'])).rejects.toThrow(
      new RegExp(`2 file\\(s\\) named by metadata.json are missing.*${a.path}.*${b.path}`),
    );
  });

  it.each([['../outside.png'], ['/etc/passwd'], ['assets/../../x']])(
    'refuses a path outside the export: %s',
    async (bad) => {
      const exported = exportOf({ ios: { bundle: bundle('ios'), assets: [] } });
      writeMetadata(exported.dir, {
        version: 0,
        bundler: 'metro',
        fileMetadata: { ios: { bundle: bundle('ios').path, assets: [{ path: bad, ext: 'png' }] } },
      });
      await expect(readExportedUpdate(exported.dir, ['ios'])).rejects.toThrow(/outside the export folder/);
    },
  );

  it('refuses an extension that cannot be a fileExtension', async () => {
    const exported = exportOf({ ios: { bundle: bundle('ios'), assets: [asset('png')] } });
    const metadata = JSON.parse(fs.readFileSync(path.join(exported.dir, 'metadata.json'), 'utf8'));
    metadata.fileMetadata.ios.assets[0].ext = 'p/ng';
    writeMetadata(exported.dir, metadata);
    await expect(readExportedUpdate(exported.dir, ['ios'])).rejects.toThrow(/unusable extension/);
  });
});
