import { pageKey } from '../url/scope.js';

/** Extensions that are never HTML pages: links to them are downloaded as files, not rendered. */
const FILE_EXTENSIONS = new Set([
  'txt', 'md', 'rst', 'pdf', 'zip', 'gz', 'tgz', 'bz2', 'xz', 'tar', '7z', 'epub', 'mobi', 'png', 'jpg', 'jpeg', 'gif', 'svg',
  'webp', 'avif', 'ico', 'bmp', 'css', 'js', 'mjs', 'json', 'xml', 'csv', 'tsv', 'yaml', 'yml', 'toml', 'ini', 'py', 'c', 'h',
  'java', 'go', 'rs', 'sh', 'mp3', 'mp4', 'webm', 'ogg', 'wav', 'woff', 'woff2', 'ttf', 'otf', 'eot', 'doc', 'docx', 'xls',
  'xlsx', 'ppt', 'pptx', 'odt', 'ods', 'whl', 'exe', 'dmg', 'deb', 'rpm', 'apk', 'jar', 'wasm', 'map', 'inv',
]);

export function looksLikeFile(url: URL): boolean {
  const ext = /\.([A-Za-z0-9]{1,8})$/.exec(url.pathname)?.[1]?.toLowerCase();
  return ext !== undefined && FILE_EXTENSIONS.has(ext);
}

export interface FrontierEntry {
  /** The page key (or, for a file, the URL without its fragment). */
  url: string;
}

/**
 * The URLs still to visit, each page (by its canonical key) at most once. Pages beyond
 * maxPages are refused (and reported); files do not count against the limit.
 */
export class Frontier {
  private readonly queue: FrontierEntry[] = [];
  private readonly seen = new Set<string>();
  private pagesAccepted = 0;
  readonly overLimit = new Set<string>();

  constructor(private readonly maxPages: number) {}

  /** Adds a URL unless already seen; false when the page limit refused it. */
  add(url: URL, isFile: boolean): boolean {
    const key = isFile ? url.href.replace(/#.*$/, '') : pageKey(url);
    if (this.seen.has(key)) return true;
    if (!isFile && this.pagesAccepted >= this.maxPages) {
      this.overLimit.add(key);
      return false;
    }
    this.seen.add(key);
    if (!isFile) this.pagesAccepted++;
    this.queue.push({ url: key });
    return true;
  }

  /** Marks a key as known without queueing it (a redirect target that was already rendered). */
  markSeen(key: string): boolean {
    if (this.seen.has(key)) return false;
    this.seen.add(key);
    return true;
  }

  next(): FrontierEntry | undefined {
    return this.queue.shift();
  }

  get size(): number {
    return this.queue.length;
  }
}
