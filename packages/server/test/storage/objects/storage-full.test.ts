import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageFullLine } from '../../../src/storage/objects/storage-full.js';
import {
  bodyFor,
  type CertificateTestServer,
  newUser,
  secondBodyFor,
  startCertificateServer,
  unwrap,
} from '../../support/certificates.js';
import { describeEachEngine } from '../../support/engines.js';
import { rowCounts } from '../../support/row-counts.js';
import { mountSmallTmpfs, type SmallTmpfs } from '../../support/small-tmpfs.js';

/**
 * Issue 34, item 12: the object store's disk fills up. DATA_DIR/objects is a 1 MiB tmpfs; a test
 * fills it to a chosen number of free bytes, writes through the real routes, and checks the answer
 * (507 STORAGE_FULL), that nothing partial is left, that earlier objects are intact, one log line,
 * and that the same request succeeds once there is room again.
 */
const KiB = 1024;
const TMPFS_BYTES = 1024 * KiB;

// Mounting needs root (or CAP_SYS_ADMIN): probed once, skipped with a printed reason elsewhere, required in CI.
const probeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-tmpfs-probe-'));
const probe = mountSmallTmpfs(probeDir, 64 * KiB);
probe?.unmount();
fs.rmSync(probeDir, { recursive: true, force: true });

const sha256 = (body: Buffer) => createHash('sha256').update(body).digest('base64url');

/** A PUT over node:http, so an answer sent before the whole body was read is still seen. */
function put(
  url: string,
  headers: Record<string, string>,
  body: Buffer,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'PUT', headers: { ...headers, 'content-length': body.length } });
    request.on('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
    });
    // Writing the rest of a body the server no longer reads may fail; the answer is what counts.
    request.on('error', (error) => reject(error));
    request.end(body);
  });
}

describeEachEngine('a full object store', (engine) => {
  describe.skipIf(probe === undefined)('on a 1 MiB tmpfs', () => {
    let dataDir: string;
    let tmpfs: SmallTmpfs;
    let server: CertificateTestServer;
    const track = { channel: 'production', runtimeVersion: `full-${engine}` } as const;
    const earlier = randomBytes(100 * KiB);
    let earlierUrl: string;

    /** Asks for an upload URL for `body`, as `ferry publish` does. */
    const uploadFor = async (body: Buffer, contentType: string) => {
      const response = await server.authed('/api/updates/assets', {
        method: 'POST',
        body: JSON.stringify({ ...track, assets: [{ hash: sha256(body), contentType, size: body.length }] }),
      });
      expect(response.status).toBe(200);
      const [status] = (await response.json()).assets as Array<{
        url: string;
        uploadUrl: string;
        uploadHeaders: Record<string, string>;
      }>;
      return { url: status!.url, send: () => put(status!.uploadUrl, status!.uploadHeaders, body) };
    };
    const objectsDir = () => path.join(dataDir, 'objects');
    const tmpFiles = () => fs.readdirSync(path.join(objectsDir(), 'tmp'));
    const filesUnder = (root: string): string[] =>
      fs.existsSync(root) ? fs.readdirSync(root, { recursive: true, encoding: 'utf8' }) : [];
    const storageFullLines = () => server.logs.entries().filter((entry) => entry.msg === storageFullLine);
    const download = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());

    beforeAll(async () => {
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-full-'));
      tmpfs = mountSmallTmpfs(path.join(dataDir, 'objects'), TMPFS_BYTES)!;
      server = await startCertificateServer(engine, { env: { DATA_DIR: dataDir } });
      const upload = await uploadFor(earlier, 'image/png');
      expect((await upload.send()).status).toBe(201);
      earlierUrl = upload.url;
    });
    afterAll(async () => {
      await server?.close();
      tmpfs?.unmount();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    });

    const UPLOAD_BYTES = 200 * KiB; // 50 pages of 4 KiB
    it.each([
      ['no room at all', 0],
      ['room for part of the bytes', 16 * 4 * KiB],
      ['room for the bytes but not their meta file', UPLOAD_BYTES],
    ])(
      '%s: 507 STORAGE_FULL, nothing partial left, one log line; with room again the same upload succeeds',
      async (_name, leave) => {
        const body = randomBytes(UPLOAD_BYTES);
        const upload = await uploadFor(body, 'image/png');
        const key = new URL(upload.url).pathname.replace(/^\/objects\//, '');
        const linesBefore = storageFullLines().length;
        const release = tmpfs.fillLeaving(leave);
        let refused: Awaited<ReturnType<typeof put>>;
        try {
          refused = await upload.send();
        } finally {
          // Room again (also when the request failed), for the rest of this test and the next ones.
          release();
        }
        expect(refused.status).toBe(507);
        expect(JSON.parse(refused.body).error).toMatchObject({
          code: 'STORAGE_FULL',
          message: expect.stringMatching(/full/),
        });
        expect(refused.headers.connection).toBe('close');

        // Nothing of the refused upload: no temporary file, no data, no meta file.
        expect(tmpFiles()).toEqual([]);
        expect(fs.existsSync(path.join(objectsDir(), 'data', key))).toBe(false);
        expect(fs.existsSync(path.join(objectsDir(), 'meta', `${key}.json`))).toBe(false);
        expect(await server.app.objectStore.head(key)).toBeUndefined();
        // The earlier object is served as it was.
        expect(sha256(await download(earlierUrl))).toBe(sha256(earlier));

        // One line, and a clear one: level error, the cause, no stack, no signed URL.
        const lines = storageFullLines().slice(linesBefore);
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatchObject({ level: 50, store: 'local', reason: 'ENOSPC' });
        expect(lines[0]).not.toHaveProperty('err');
        expect(JSON.stringify(lines[0])).not.toMatch(/signature|stack/);

        const again = await upload.send();
        expect(again.status).toBe(201);
        expect(sha256(await download(upload.url))).toBe(sha256(body));
        expect(tmpFiles()).toEqual([]);
      },
    );

    it('an issued certificate whose PDF cannot be stored answers 507 STORAGE_FULL and records nothing', async () => {
      const document = 'resident-certificate';
      const token = await server.tokenFor(newUser());
      const first = await server.post(document, bodyFor(document), token);
      expect(first.status).toBe(200);
      await server.approve('VENDOR_A');
      const before = await rowCounts(server.app.database.db, ['certificate_issuances']);
      const linesBefore = storageFullLines().length;
      const release = tmpfs.fillLeaving(0);
      let response: Response;
      try {
        response = await server.post(document, secondBodyFor(document, await unwrap(document, first)), token);
      } finally {
        release();
      }
      expect(response.status).toBe(507);
      expect((await response.json()).error.code).toBe('STORAGE_FULL');
      expect(await rowCounts(server.app.database.db, ['certificate_issuances'])).toEqual(before);
      expect(filesUnder(path.join(objectsDir(), 'data', 'certificates'))).toEqual([]);
      expect(tmpFiles()).toEqual([]);
      expect(storageFullLines().slice(linesBefore)).toHaveLength(1);
    });

    it('compressed forms that find no room do not fail the upload: the asset is stored and served as it is', async () => {
      // Repetitive text compresses well: its brotli and gzip forms would be stored beside it.
      const script = Buffer.from('console.log("ferry");\n'.repeat(2048).slice(0, 40 * KiB));
      const upload = await uploadFor(script, 'application/javascript');
      const warningsBefore = server.logs.entries().filter((entry) => /compressed forms/.test(String(entry.msg))).length;
      // Room for the asset and its meta file (10 pages and 1), none for its compressed forms.
      const release = tmpfs.fillLeaving(11 * 4 * KiB);
      let stored: Awaited<ReturnType<typeof put>>;
      try {
        stored = await upload.send();
      } finally {
        release();
      }
      expect(stored.status).toBe(201);
      const served = await fetch(upload.url, { headers: { 'accept-encoding': 'identity' } });
      expect(served.status).toBe(200);
      expect(sha256(Buffer.from(await served.arrayBuffer()))).toBe(sha256(script));
      expect(filesUnder(path.join(objectsDir(), 'data', 'encoded'))).toEqual([]);
      expect(tmpFiles()).toEqual([]);
      const warnings = server.logs.entries().filter((entry) => /compressed forms/.test(String(entry.msg)));
      expect(warnings.slice(warningsBefore)).toEqual([
        expect.objectContaining({ level: 40, store: 'local', reason: 'ENOSPC', assets: 1 }),
      ]);
      expect(warnings.at(-1)).not.toHaveProperty('err');
    });
  });
});
