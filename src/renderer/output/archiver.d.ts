// archiver 8 ships no types (and @types/archiver describes the older API). Only what Docport uses.
declare module 'archiver' {
  import type { Stats } from 'node:fs';
  import { Transform } from 'node:stream';
  import type { ZlibOptions } from 'node:zlib';

  export interface EntryData {
    name: string;
    date?: Date | string;
    mode?: number;
    stats?: Stats;
  }

  export class Archiver extends Transform {
    file(filepath: string, data: EntryData): this;
    append(source: Buffer | string | NodeJS.ReadableStream, data: EntryData): this;
    finalize(): Promise<void>;
    abort(): this;
    pointer(): number;
  }

  export class ZipArchive extends Archiver {
    constructor(options?: { zlib?: ZlibOptions; store?: boolean; forceZip64?: boolean });
  }

  export class TarArchive extends Archiver {
    constructor(options?: { gzip?: boolean; gzipOptions?: ZlibOptions });
  }
}
