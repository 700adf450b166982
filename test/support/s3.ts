import { CreateBucketCommand, DeleteBucketCommand, DeleteObjectsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { cleanup, requireEnv, uniqueName } from './environment.js';

export interface TestBucket {
  readonly client: S3Client;
  readonly bucket: string;
  readonly endpoint: string;
  readonly region: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

export function testS3Client(overrides: { accessKeyId?: string; secretAccessKey?: string } = {}): S3Client {
  return new S3Client({
    endpoint: requireEnv('DOCPORT_S3_ENDPOINT', 'S3 server'),
    region: requireEnv('DOCPORT_S3_REGION', 'S3 server'),
    forcePathStyle: true,
    credentials: {
      accessKeyId: overrides.accessKeyId ?? requireEnv('DOCPORT_S3_ACCESS_KEY_ID', 'S3 server'),
      secretAccessKey: overrides.secretAccessKey ?? requireEnv('DOCPORT_S3_SECRET_ACCESS_KEY', 'S3 server'),
    },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** A fresh bucket on the S3 server, emptied and deleted after the suite. */
export async function testBucket(): Promise<TestBucket> {
  const client = testS3Client();
  const bucket = uniqueName('t');
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  cleanup(async () => {
    for (;;) {
      const page = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
      if (keys.length === 0) break;
      await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys } }));
    }
    await client.send(new DeleteBucketCommand({ Bucket: bucket }));
    client.destroy();
  });
  return {
    client, bucket,
    endpoint: requireEnv('DOCPORT_S3_ENDPOINT', 'S3 server'),
    region: requireEnv('DOCPORT_S3_REGION', 'S3 server'),
    accessKeyId: requireEnv('DOCPORT_S3_ACCESS_KEY_ID', 'S3 server'),
    secretAccessKey: requireEnv('DOCPORT_S3_SECRET_ACCESS_KEY', 'S3 server'),
  };
}
