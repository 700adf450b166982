// Proof that the S3 server checks SigV4: signed calls work, presigned links work
// until they expire, and tampered, expired or wrongly keyed requests get 403.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { GetObjectCommand, HeadBucketCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { testBucket, testS3Client, type TestBucket } from '../support/s3.js';

describe('S3 server with SigV4 checks', () => {
  let s3: TestBucket;
  before(async () => {
    s3 = await testBucket();
    await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: 'exports/a/index.html', Body: '<h1>hello</h1>', ContentType: 'text/html' }));
  });

  it('reads back what was put, and lists and heads the bucket (bucket-level signatures)', async () => {
    const got = await s3.client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: 'exports/a/index.html' }));
    assert.equal(await got.Body!.transformToString(), '<h1>hello</h1>');
    const listed = await s3.client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: 'exports/' }));
    assert.deepEqual(listed.Contents?.map((o) => o.Key), ['exports/a/index.html']);
    await s3.client.send(new HeadBucketCommand({ Bucket: s3.bucket }));
  });

  it('accepts a multipart upload', async () => {
    const body = Buffer.alloc(11 * 1024 * 1024, 7); // three parts of at least 5 MiB
    await new Upload({ client: s3.client, params: { Bucket: s3.bucket, Key: 'big.bin', Body: body }, partSize: 5 * 1024 * 1024 }).done();
    const head = await s3.client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: 'big.bin' }));
    assert.equal(head.ContentLength, body.length);
    await head.Body!.transformToByteArray();
  });

  it('serves a presigned GET, and refuses a tampered one with 403', async () => {
    const url = await getSignedUrl(s3.client, new GetObjectCommand({ Bucket: s3.bucket, Key: 'exports/a/index.html' }), { expiresIn: 300 });
    const ok = await fetch(url);
    assert.equal(ok.status, 200);
    assert.equal(await ok.text(), '<h1>hello</h1>');

    const signature = new URL(url).searchParams.get('X-Amz-Signature')!;
    const flipped = signature.slice(0, -1) + (signature.endsWith('0') ? '1' : '0');
    const tamperedSignature = url.replace(signature, flipped);
    assert.equal((await fetch(tamperedSignature)).status, 403);
    const tamperedKey = url.replace('/exports/a/index.html', '/exports/a/other.html');
    assert.equal((await fetch(tamperedKey)).status, 403);
    const unsigned = new URL(url);
    unsigned.search = '';
    assert.equal((await fetch(unsigned)).status, 403);
    const longer = new URL(url);
    longer.searchParams.set('X-Amz-Expires', '604800');
    assert.equal((await fetch(longer)).status, 403);
  });

  it('refuses an expired presigned GET with 403', async () => {
    const url = await getSignedUrl(s3.client, new GetObjectCommand({ Bucket: s3.bucket, Key: 'exports/a/index.html' }), { expiresIn: 1 });
    await new Promise((r) => setTimeout(r, 2100));
    const response = await fetch(url);
    assert.equal(response.status, 403);
    assert.match(await response.text(), /expired/i);
  });

  it('refuses requests signed with a wrong secret or an unknown key', async () => {
    for (const creds of [{ secretAccessKey: 'not-the-secret' }, { accessKeyId: 'AKIAUNKNOWN', secretAccessKey: 'x' }]) {
      const client = testS3Client(creds);
      await assert.rejects(client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: 'exports/a/index.html' })), (error: { $metadata?: { httpStatusCode?: number } }) => {
        assert.equal(error.$metadata?.httpStatusCode, 403);
        return true;
      });
      client.destroy();
    }
  });
});
