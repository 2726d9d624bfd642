import fs from 'node:fs/promises';
import { ErrorBody, FerryHttpError, isStorageFullAnswer } from '@ferry/contracts';
import pLimit from 'p-limit';
import { DEFAULT_RETRY, type RetryPolicy, withRetries } from '../http/retry.js';
import type { ExportedFile } from './exported-update.js';
import type { UploadProgress } from './upload-progress.js';

/** One missing asset and where the server wants it. */
export interface UploadJob {
  asset: ExportedFile;
  uploadUrl: string;
  uploadHeaders: Record<string, string>;
}

export interface UploadOptions {
  concurrency: number;
  retry?: RetryPolicy;
  fetch?: typeof fetch;
  progress?: UploadProgress;
}

export const DEFAULT_UPLOAD_CONCURRENCY = 8;

/**
 * The error code of a refused upload: Ferry's error body (the local store), or the `<Code>` of an
 * S3-compatible store's XML answer to a presigned PUT.
 */
function errorCodeOf(body: string): string | undefined {
  try {
    const parsed = ErrorBody.safeParse(JSON.parse(body));
    if (parsed.success) return parsed.data.error.code;
  } catch {
    // not JSON: perhaps S3's XML
  }
  return /<Code>([^<]{1,100})<\/Code>/.exec(body)?.[1];
}

/** One idempotent PUT of a content-addressed object; retried by the caller when transient. */
async function put(job: UploadJob, fetchImpl: typeof fetch): Promise<void> {
  const body = await fs.readFile(job.asset.file);
  const headers = { 'content-type': job.asset.contentType, ...job.uploadHeaders };
  let response: Response;
  try {
    response = await fetchImpl(job.uploadUrl, { method: 'PUT', headers, body });
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    throw new FerryHttpError(0, 'NETWORK', `network error: ${cause}`);
  }
  if (!response.ok) {
    const answer = await response.text();
    const text = answer.slice(0, 200).replace(/\s+/g, ' ');
    const code = errorCodeOf(answer);
    if (isStorageFullAnswer(response.status, code)) {
      throw new FerryHttpError(
        response.status,
        'STORAGE_FULL',
        `PUT answered ${response.status} (${code ?? 'storage full'})`,
      );
    }
    throw new FerryHttpError(
      response.status,
      'UPLOAD_FAILED',
      `PUT answered ${response.status}${text ? `: ${text}` : ''}`,
    );
  }
  await response.body?.cancel();
}

/**
 * Uploads the missing assets in parallel. Each PUT is retried on network errors and 5xx/408/429;
 * a 4xx is final. The first final failure stops the publish: no release is registered with an
 * asset the store does not have.
 */
export async function uploadAssets(
  jobs: UploadJob[],
  options: UploadOptions,
): Promise<{ bytes: number; count: number }> {
  const fetchImpl = options.fetch ?? fetch;
  const limit = pLimit(Math.max(1, options.concurrency));
  let bytes = 0;
  try {
    await Promise.all(
      jobs.map((job) =>
        limit(async () => {
          await withRetries(
            () => put(job, fetchImpl),
            (error) => error instanceof FerryHttpError && error.transient,
            options.retry ?? DEFAULT_RETRY,
            (error, attempt) =>
              options.progress?.retrying(
                job.asset.relativePath,
                attempt,
                error instanceof Error ? error.message : String(error),
              ),
          ).catch((error: unknown) => {
            const reason = error instanceof Error ? error.message : String(error);
            throw new FerryHttpError(
              error instanceof FerryHttpError ? error.status : 0,
              error instanceof FerryHttpError && error.code === 'STORAGE_FULL' ? 'STORAGE_FULL' : 'UPLOAD_FAILED',
              `Uploading ${job.asset.relativePath} failed: ${reason}`,
            );
          });
          bytes += job.asset.size;
          options.progress?.uploaded(job.asset.size);
        }),
      ),
    );
  } catch (error) {
    limit.clearQueue();
    throw error;
  } finally {
    options.progress?.stop();
  }
  return { bytes, count: jobs.length };
}
