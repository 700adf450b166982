import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pipeline } from 'node:stream/promises';
import { createWriteStream } from 'node:fs';
import { createArchive } from '../../src/renderer/output/archive.js';
import { extractTarGz } from '../../src/selfhosted/extract/tar.js';
import { extractZip } from '../../src/selfhosted/extract/zip.js';
import { UnsafeArchiveError } from '../../src/selfhosted/extract/safe-entry.js';
import { pax, tarGzOf, zipOf } from './support/archives.js';

describe('bundle extraction', () => {
  let work: string;
  let tree: string;
  const files: Record<string, string> = { 'index.html': '<h1>Home</h1>', 'guide/index.html': '<h1>Guide</h1>', 'guide/ünïcode page.html': 'ü', 'assets/app.css': 'body{}', 'empty.txt': '' };
  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'docport-extract-'));
    tree = path.join(work, 'tree');
    for (const [name, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(tree, name)), { recursive: true });
      await writeFile(path.join(tree, name), text);
    }
  });
  after(() => rm(work, { recursive: true, force: true }));

  const fresh = async (): Promise<string> => mkdtemp(path.join(work, 'out-'));
  const list = async (dir: string): Promise<string[]> =>
    (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name))).sort();

  for (const format of ['zip', 'tar.gz'] as const) {
    it(`extracts a ${format} made by the renderer's archiver exactly`, async () => {
      const archive = createArchive(format);
      const file = path.join(work, `bundle.${format}`);
      const written = pipeline(archive, createWriteStream(file));
      for (const name of Object.keys(files)) archive.file(path.join(tree, name), { name, date: new Date('2000-01-01T00:00:00Z'), mode: 0o644 });
      await archive.finalize();
      await written;
      const out = await fresh();
      const count = format === 'zip' ? await extractZip(file, out, 1e9) : await extractTarGz(file, out, 1e9);
      assert.equal(count, Object.keys(files).length);
      assert.deepEqual(await list(out), Object.keys(files).sort());
      for (const [name, text] of Object.entries(files)) assert.equal(await readFile(path.join(out, name), 'utf8'), text);
    });
  }

  const hostileZips: Record<string, Buffer> = {
    'zip slip': zipOf([{ name: '../evil.txt', data: Buffer.from('x') }]),
    'nested zip slip': zipOf([{ name: 'a/../../evil.txt', data: Buffer.from('x') }]),
    'absolute path': zipOf([{ name: '/tmp/evil.txt', data: Buffer.from('x') }]),
    'windows path': zipOf([{ name: 'C:\\evil.txt', data: Buffer.from('x') }]),
    'symlink': zipOf([{ name: 'link', data: Buffer.from('/etc/passwd'), mode: 0o120777 }]),
    'duplicate entry': zipOf([{ name: 'a.html', data: Buffer.from('1') }, { name: 'a.html', data: Buffer.from('2') }]),
    'CRC mismatch': zipOf([{ name: 'a.html', data: Buffer.from('hello'), crc: 1234 }]),
    'inflates beyond its declared size': zipOf([{ name: 'a.html', data: Buffer.alloc(100_000), deflate: true, size: 10 }]),
    'bomb over the size budget': zipOf([{ name: 'zeros.bin', data: Buffer.alloc(5_000_000), deflate: true }]),
    'not a zip': Buffer.from('PK but nothing else'),
  };
  for (const [name, bytes] of Object.entries(hostileZips)) {
    it(`refuses a hostile zip: ${name}`, async () => {
      const file = path.join(work, 'hostile.zip');
      await writeFile(file, bytes);
      const out = await fresh();
      await assert.rejects(extractZip(file, out, 1_000_000), UnsafeArchiveError);
      assert.ok(!existsSync(path.join(work, 'evil.txt')) && !existsSync('/tmp/evil.txt'), 'nothing written outside the root');
    });
  }

  const hostileTars: Record<string, Buffer> = {
    'tar slip': tarGzOf([{ name: '../evil.txt', data: Buffer.from('x') }]),
    'absolute path': tarGzOf([{ name: '/tmp/evil.txt', data: Buffer.from('x') }]),
    'symlink': tarGzOf([{ name: 'link', type: '2', linkname: '/etc/passwd' }]),
    'hard link': tarGzOf([{ name: 'link', type: '1', linkname: 'index.html' }]),
    'device': tarGzOf([{ name: 'dev', type: '3' }]),
    'fifo': tarGzOf([{ name: 'fifo', type: '6' }]),
    'pax path escaping': tarGzOf([{ name: 'PaxHeader', type: 'x', data: pax({ path: '../evil.txt' }) }, { name: 'ok.txt', data: Buffer.from('x') }]),
    'pax link': tarGzOf([{ name: 'PaxHeader', type: 'x', data: pax({ linkpath: '/etc' }) }, { name: 'ok.txt', data: Buffer.from('x') }]),
    'bomb over the size budget': tarGzOf([{ name: 'zeros.bin', data: Buffer.alloc(2_000_000) }]),
    'truncated': tarGzOf([{ name: 'a.txt', data: Buffer.from('x') }], { endMarker: false }),
  };
  for (const [name, bytes] of Object.entries(hostileTars)) {
    it(`refuses a hostile tar.gz: ${name}`, async () => {
      const file = path.join(work, 'hostile.tar.gz');
      await writeFile(file, bytes);
      const out = await fresh();
      await assert.rejects(extractTarGz(file, out, 1_000_000), UnsafeArchiveError);
      assert.ok(!existsSync(path.join(work, 'evil.txt')) && !existsSync('/tmp/evil.txt'), 'nothing written outside the root');
    });
  }

  it('follows a pax path that stays inside the root', async () => {
    const file = path.join(work, 'pax.tar.gz');
    const long = `${'deep/'.repeat(30)}page.html`;
    await writeFile(file, tarGzOf([{ name: 'PaxHeader', type: 'x', data: pax({ path: long }) }, { name: 'truncated-name', data: Buffer.from('deep') }]));
    const out = await fresh();
    await extractTarGz(file, out, 1e6);
    assert.equal(await readFile(path.join(out, long), 'utf8'), 'deep');
  });
});
