import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** The environment that points a Ferry server at this bucket (under the `ferry` prefix). */
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * An in-process s3rver on an ephemeral port with one bucket. s3rver checks expiry and access keys
 * but not SigV4 signatures or checksums; those are unit-tested on the presigned URLs instead.
 */
export async function startTestS3(): Promise<TestS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-s3rver-'));
  const bucket = 'ferry-test';
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const address = await server.run();
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint,
    bucket,
    env: {
      OBJECT_STORE_URL: `s3://${bucket}/ferry`,
      S3_ENDPOINT: endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      AWS_REGION: 'us-east-1',
      // s3rver's built-in account.
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
    },
    close: async () => {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
