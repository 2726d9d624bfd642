import cliProgress from 'cli-progress';
import { formatBytes } from './format.js';

/** Reports upload progress: a bar on a terminal, plain lines in CI logs. */
export interface UploadProgress {
  uploaded(bytes: number): void;
  retrying(what: string, attempt: number, reason: string): void;
  stop(): void;
}

export interface ProgressStream {
  isTTY?: boolean;
  write(text: string): unknown;
}

/** Plain lines at every tenth of the way, so a 500-asset upload prints ten lines, not 500. */
class LineProgress implements UploadProgress {
  private count = 0;
  private bytes = 0;
  private lastTenth = 0;
  constructor(
    private readonly stream: ProgressStream,
    private readonly label: string,
    private readonly total: number,
    private readonly totalBytes: number,
  ) {
    stream.write(`${label}: uploading ${total} asset(s), ${formatBytes(totalBytes)}\n`);
  }
  uploaded(bytes: number): void {
    this.count++;
    this.bytes += bytes;
    const tenth = Math.floor((this.count * 10) / this.total);
    if (tenth > this.lastTenth || this.count === this.total) {
      this.lastTenth = tenth;
      this.stream.write(
        `${this.label}: uploaded ${this.count}/${this.total} (${formatBytes(this.bytes)} of ${formatBytes(this.totalBytes)})\n`,
      );
    }
  }
  retrying(what: string, attempt: number, reason: string): void {
    this.stream.write(`${this.label}: retrying ${what} after attempt ${attempt} failed: ${reason}\n`);
  }
  stop(): void {}
}

class BarProgress implements UploadProgress {
  private readonly bar: cliProgress.SingleBar;
  private bytes = 0;
  constructor(
    private readonly stream: ProgressStream,
    label: string,
    total: number,
    private readonly totalBytes: number,
  ) {
    this.bar = new cliProgress.SingleBar(
      {
        format: `${label} [{bar}] {value}/{total} assets | {sent} of {size}`,
        stream: stream as NodeJS.WritableStream,
        hideCursor: true,
        clearOnComplete: false,
      },
      cliProgress.Presets.shades_classic,
    );
    this.bar.start(total, 0, { sent: formatBytes(0), size: formatBytes(totalBytes) });
  }
  uploaded(bytes: number): void {
    this.bytes += bytes;
    this.bar.increment(1, { sent: formatBytes(this.bytes), size: formatBytes(this.totalBytes) });
  }
  retrying(what: string, attempt: number, reason: string): void {
    // Above the bar, so the bar keeps its line.
    this.stream.write(`\nretrying ${what} after attempt ${attempt} failed: ${reason}\n`);
  }
  stop(): void {
    this.bar.stop();
  }
}

export function createUploadProgress(
  stream: ProgressStream,
  label: string,
  total: number,
  totalBytes: number,
): UploadProgress {
  return stream.isTTY
    ? new BarProgress(stream, label, total, totalBytes)
    : new LineProgress(stream, label, total, totalBytes);
}
