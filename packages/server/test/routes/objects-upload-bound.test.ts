import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';

const MiB = 1024 * 1024;

interface Outcome {
  /** Bytes the client managed to hand to its socket before the server answered or hung up. */
  written: number;
  status: number | undefined;
  body: string;
}

/**
 * PUTs an endless chunked body (no content-length, so the server cannot refuse it up front) until
 * the server answers or closes the connection, or `cap` bytes were sent.
 */
function putEndless(url: string, headers: Record<string, string>, cap: number): Promise<Outcome> {
  return new Promise((resolve) => {
    let written = 0;
    let done = false;
    const finish = (status: number | undefined, body: string) => {
      if (done) return;
      done = true;
      request.destroy();
      resolve({ written, status, body });
    };
    const request = http.request(url, { method: 'PUT', headers });
    request.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => finish(response.statusCode, body));
      response.on('error', () => finish(response.statusCode, body));
    });
    request.on('error', () => finish(undefined, ''));
    request.on('close', () => setImmediate(() => finish(undefined, '')));
    const chunk = Buffer.alloc(64 * 1024, 7);
    const pump = () => {
      while (!done && written < cap) {
        written += chunk.length;
        if (!request.write(chunk)) {
          request.once('drain', pump);
          return;
        }
      }
      if (!done && written >= cap) request.end();
    };
    pump();
  });
}

describe('uploads are bounded by the size their URL was signed for', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite');
  });
  afterAll(async () => server?.close());

  const signedFor = async (key: string, size: number) => {
    const sha256 = createHash('sha256').update(randomBytes(size)).digest('base64url');
    return server.app.objectStore.signedPutUrl(key, {
      contentType: 'application/octet-stream',
      ttlSeconds: 600,
      sha256Base64Url: sha256,
      size,
    });
  };

  it('a declared length over the signed size is refused before any byte is read', async () => {
    const signed = await signedFor('uploads/declared.bin', 25);
    const response = await fetch(signed.url, { method: 'PUT', headers: signed.headers, body: randomBytes(4096) });
    expect(response.status).toBe(400);
    expect(response.headers.get('connection')).toBe('close');
    expect((await response.json()).error.code).toBe('SIZE_MISMATCH');
    expect(await server.app.objectStore.head('uploads/declared.bin')).toBeUndefined();
  });

  it('a chunked body stops being read just past the signed size: 25 bytes signed, not 100 MiB read', async () => {
    const signed = await signedFor('uploads/endless.bin', 25);
    const outcome = await putEndless(signed.url, signed.headers, 100 * MiB);
    // The server stopped reading: what the client could send is what the sockets buffer, far
    // below the 100 MiB it tried (before, the server read up to its upload limit).
    expect(outcome.written).toBeLessThan(32 * MiB);
    if (outcome.status !== undefined) {
      expect(outcome.status).toBe(400);
      expect(JSON.parse(outcome.body).error.code).toBe('SIZE_MISMATCH');
    }
    expect(await server.app.objectStore.head('uploads/endless.bin')).toBeUndefined();
    expect(fs.readdirSync(path.join(server.dataDir, 'objects', 'tmp'))).toEqual([]);
  });
});

describe('partial uploads left by a crash', () => {
  it('are swept when the server starts: this host’s ended processes at once, other hosts’ once idle', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-sweep-'));
    const tmp = path.join(dataDir, 'objects', 'tmp');
    fs.mkdirSync(tmp, { recursive: true });
    const host = encodeURIComponent(os.hostname());
    const ended = spawnSync(process.execPath, ['-e', '0']).pid!;
    const hourAgo = new Date(Date.now() - 2 * 3600_000);
    const files = {
      sameProcessBeforeRestart: `${host}~${process.pid}~a.part`,
      endedProcess: `${host}~${ended}~b.part`,
      otherHostIdle: `other-host~1~c.part`,
      otherHostWriting: `other-host~1~d.part`,
      unnamedIdle: 'e.part',
    };
    for (const name of Object.values(files)) fs.writeFileSync(path.join(tmp, name), randomBytes(100));
    for (const name of [files.otherHostIdle, files.unnamedIdle]) fs.utimesSync(path.join(tmp, name), hourAgo, hourAgo);

    const server = await startTestServer('sqlite', { env: { DATA_DIR: dataDir } });
    try {
      expect(fs.readdirSync(tmp)).toEqual([files.otherHostWriting]);
      expect(server.logs.text).toContain('removed partial uploads');
    } finally {
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
