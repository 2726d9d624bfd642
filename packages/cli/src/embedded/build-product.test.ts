import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  androidFiles,
  appManifest,
  iosAppFiles,
  launchBundle,
  type Tree,
  under,
  writeTree,
  writeZip,
} from '../../test/support/build-products.js';
import { readBuildProduct } from './build-product.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-build-product-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const id = randomUUID();
const bundle = launchBundle();
const at = (name: string) => path.join(dir, name);

describe('readBuildProduct: each kind of build product', () => {
  it('an iOS .app directory: EXUpdates.bundle/app.manifest and main.jsbundle', async () => {
    const app = writeTree(at('Shop.app'), iosAppFiles(appManifest(id), bundle));
    const update = await readBuildProduct(app);
    expect(update).toMatchObject({ platform: 'ios', updateId: id });
    expect(update.bundle.equals(bundle)).toBe(true);
    expect(update.from).toEqual({
      updateId: path.join(app, 'EXUpdates.bundle/app.manifest'),
      bundle: path.join(app, 'main.jsbundle'),
    });
    expect(update.runtimeVersion).toBeUndefined();
  });

  it('an iOS .app built with dynamic frameworks: the manifest inside EXUpdates.framework', async () => {
    const app = writeTree(at('Shop.app'), {
      'main.jsbundle': bundle,
      'Frameworks/EXUpdates.framework/EXUpdates.bundle/app.manifest': appManifest(id),
    });
    expect(await readBuildProduct(app)).toMatchObject({
      updateId: id,
      from: { updateId: path.join(app, 'Frameworks/EXUpdates.framework/EXUpdates.bundle/app.manifest') },
    });
  });

  it('an .xcarchive: the app in Products/Applications', async () => {
    const archive = writeTree(at('Shop.xcarchive'), {
      'Info.plist': 'plist',
      'dSYMs/Shop.app.dSYM/x': 'dwarf',
      ...under('Products/Applications/Shop.app/', iosAppFiles(appManifest(id), bundle)),
    });
    const update = await readBuildProduct(archive);
    expect(update).toMatchObject({ platform: 'ios', updateId: id });
    expect(update.bundle.equals(bundle)).toBe(true);
  });

  it('an .ipa: the top-level app of Payload/, not an extension or watch app inside it', async () => {
    const other = launchBundle(100);
    const ipa = await writeZip(at('Shop.ipa'), {
      ...under('Payload/Shop.app/', iosAppFiles(appManifest(id), bundle)),
      'Payload/Shop.app/Watch/ShopWatch.app/main.jsbundle': other,
      'Payload/Shop.app/PlugIns/Widget.appex/Info.plist': 'plist',
      'Symbols/x.symbols': 'sym',
    });
    const update = await readBuildProduct(ipa);
    expect(update).toMatchObject({ platform: 'ios', updateId: id });
    expect(update.bundle.equals(bundle)).toBe(true);
    expect(update.from).toEqual({
      updateId: `Payload/Shop.app/EXUpdates.bundle/app.manifest in ${ipa}`,
      bundle: `Payload/Shop.app/main.jsbundle in ${ipa}`,
    });
  });

  it('an .apk: assets/app.manifest and assets/index.android.bundle', async () => {
    const apk = await writeZip(at('app-release.apk'), androidFiles(appManifest(id), bundle));
    const update = await readBuildProduct(apk);
    expect(update).toMatchObject({ platform: 'android', updateId: id });
    expect(update.bundle.equals(bundle)).toBe(true);
    expect(update.from.bundle).toBe(`assets/index.android.bundle in ${apk}`);
  });

  it('an .aab: the base module’s assets', async () => {
    const aab = await writeZip(at('app-release.aab'), {
      'BundleConfig.pb': 'pb',
      ...under('base/', androidFiles(appManifest(id), bundle)),
    });
    const update = await readBuildProduct(aab);
    expect(update).toMatchObject({ platform: 'android', updateId: id });
    expect(update.bundle.equals(bundle)).toBe(true);
    expect(update.from.updateId).toBe(`base/assets/app.manifest in ${aab}`);
  });

  it('the name’s ending counts whatever its case, and a trailing slash on a directory', async () => {
    writeTree(at('Shop.APP'), iosAppFiles(appManifest(id), bundle));
    expect(await readBuildProduct(`${at('Shop.APP')}/`)).toMatchObject({ platform: 'ios', updateId: id });
  });

  it('a runtimeVersion in the manifest comes through', async () => {
    const apk = await writeZip(at('a.apk'), androidFiles(appManifest(id, { runtimeVersion: '1.4.0(41)' }), bundle));
    expect(await readBuildProduct(apk)).toMatchObject({ runtimeVersion: '1.4.0(41)' });
  });
});

describe('readBuildProduct: what it refuses, and why', () => {
  const refusal = (input: string) =>
    readBuildProduct(input).then(
      () => 'read',
      (error: Error) => error.message,
    );
  const apkWith = (tree: Tree) => writeZip(at('a.apk'), tree);

  it('a path that does not exist', async () => {
    expect(await refusal(at('nope.ipa'))).toBe(`${at('nope.ipa')} does not exist.`);
  });

  it('something that is not a build product, or a file where a directory belongs', async () => {
    fs.writeFileSync(at('bundle.js'), 'x');
    fs.writeFileSync(at('Fake.app'), 'x');
    fs.mkdirSync(at('dir.apk'));
    for (const input of ['bundle.js', 'Fake.app', 'dir.apk']) {
      expect(await refusal(at(input))).toMatch(/is not a build product Ferry reads: an iOS \.app .*--manifest/);
    }
  });

  it('a build without an embedded update (a Debug build) names where it looked', async () => {
    const app = writeTree(at('Shop.app'), { 'main.jsbundle': bundle });
    expect(await refusal(app)).toBe(
      `${app} has no app.manifest (looked for EXUpdates.bundle/app.manifest, ` +
        'Frameworks/EXUpdates.framework/EXUpdates.bundle/app.manifest, app.manifest). ' +
        'expo-updates writes the embedded update only in release builds (a Debug build embeds none); is expo-updates installed in the app?',
    );
    const apk = await apkWith({ 'assets/index.android.bundle': bundle });
    expect(await refusal(apk)).toMatch(/has no app\.manifest \(looked for assets\/app\.manifest\)/);
  });

  it('a manifest without its bundle', async () => {
    const apk = await apkWith({ 'assets/app.manifest': appManifest(id) });
    expect(await refusal(apk)).toMatch(/a\.apk has no assets\/index\.android\.bundle\. expo-updates writes/);
  });

  it('an empty bundle', async () => {
    const apk = await apkWith(androidFiles(appManifest(id), Buffer.alloc(0)));
    expect(await refusal(apk)).toBe(`assets/index.android.bundle in ${apk} is empty: it is not a launch bundle.`);
  });

  it.each([
    [
      'without an id',
      JSON.stringify({ commitTime: 1, assets: [] }),
      /has no "id": expo-updates writes the embedded update's id there, so this is not an app\.manifest of a release build\.$/,
    ],
    ['with an id that is not a UUID', appManifest('not-a-uuid'), /has the "id" "not-a-uuid", not a UUID\./],
    ['that is not JSON', '{ id: ', /is not JSON \(.+\): it is not an expo-updates app\.manifest\./],
    ['that is not an object', '[]', /is not a JSON object/],
  ])('a manifest %s', async (_name, manifest, reason) => {
    const apk = await apkWith(androidFiles(manifest, bundle));
    const message = await refusal(apk);
    expect(message).toMatch(reason);
    expect(message.startsWith(`assets/app.manifest in ${apk}`)).toBe(true);
  });

  it('a file that is not a zip archive', async () => {
    fs.writeFileSync(at('broken.aab'), 'not a zip at all');
    expect(await refusal(at('broken.aab'))).toMatch(
      new RegExp(`^${at('broken.aab').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} cannot be read as a zip archive: .+`),
    );
  });

  it('an .ipa with no app, or two, in Payload/', async () => {
    const none = await writeZip(at('none.ipa'), { 'Payload/readme.txt': 'x' });
    expect(await refusal(none)).toMatch(/should hold one app in Payload\/; it holds none\. Is it an \.ipa\?/);
    const two = await writeZip(at('two.ipa'), {
      ...under('Payload/A.app/', iosAppFiles(appManifest(id), bundle)),
      ...under('Payload/B.app/', iosAppFiles(appManifest(), bundle)),
    });
    expect(await refusal(two)).toMatch(/it holds A\.app, B\.app/);
  });

  it('an .xcarchive without an app', async () => {
    const archive = writeTree(at('Shop.xcarchive'), { 'Info.plist': 'plist' });
    expect(await refusal(archive)).toBe(`${archive} should hold one app in Products/Applications; it holds none.`);
  });
});
