import { describe, expect, it } from 'vitest';
import { createUploadProgress } from './upload-progress.js';

class Stream {
  text = '';
  constructor(readonly isTTY: boolean) {}
  write(chunk: string) {
    this.text += chunk;
    return true;
  }
  // cli-progress asks a terminal for its size and cursor moves.
  columns = 100;
  cursorTo() {
    return true;
  }
  clearLine() {
    return true;
  }
  moveCursor() {
    return true;
  }
}

describe('upload progress', () => {
  it('prints plain lines when stdout is not a terminal: one per tenth, not one per asset', () => {
    const stream = new Stream(false);
    const progress = createUploadProgress(stream, 'ios', 500, 500 * 1024);
    for (let i = 0; i < 500; i++) progress.uploaded(1024);
    progress.retrying('assets/abc', 1, 'PUT answered 503');
    progress.stop();
    const lines = stream.text.trim().split('\n');
    expect(lines[0]).toBe('ios: uploading 500 asset(s), 500.0 KiB');
    expect(lines.filter((l) => l.includes('uploaded'))).toHaveLength(10);
    expect(lines).toContain('ios: uploaded 500/500 (500.0 KiB of 500.0 KiB)');
    expect(lines.at(-1)).toBe('ios: retrying assets/abc after attempt 1 failed: PUT answered 503');
    expect(stream.text).not.toContain('\u001b[');
  });

  it('a single asset still reports its completion', () => {
    const stream = new Stream(false);
    const progress = createUploadProgress(stream, 'android', 1, 10);
    progress.uploaded(10);
    expect(stream.text).toContain('android: uploaded 1/1 (10 B of 10 B)');
  });

  it('draws a bar on a terminal', () => {
    const stream = new Stream(true);
    const progress = createUploadProgress(stream, 'ios', 4, 4096);
    for (let i = 0; i < 4; i++) progress.uploaded(1024);
    progress.stop();
    expect(stream.text).toMatch(/ios \[[█░]+\] 4\/4 assets \| 4\.0 KiB of 4\.0 KiB/);
  });
});
