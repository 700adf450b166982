/**
 * Finds and rewrites the URLs in a stylesheet: url(...), @import "..." / @import url(...),
 * and the strings of image-set(). A small scanner rather than a regex so that comments,
 * strings and escapes cannot fool it; it does not need to understand the rest of CSS.
 */

export type CssReferenceKind = 'url' | 'import' | 'image-set';

export interface CssReference {
  kind: CssReferenceKind;
  /** The URL as written, CSS escapes resolved. */
  url: string;
  /** Span of the token to replace (the whole url(...) or string). */
  start: number;
  end: number;
  /** For imports: span of the whole @import rule, removed when the import is dropped. */
  ruleStart?: number;
  ruleEnd?: number;
}

const isIdentChar = (c: string | undefined): boolean => c !== undefined && /[A-Za-z0-9_-]/.test(c);

function unescapeCss(text: string): string {
  return text.replace(/\\(?:([0-9a-fA-F]{1,6})\s?|(\n)|(.))/g, (_m, hex: string | undefined, nl: string | undefined, ch: string | undefined) => {
    if (hex) {
      const code = parseInt(hex, 16);
      return code === 0 || code > 0x10ffff ? '\ufffd' : String.fromCodePoint(code);
    }
    if (nl) return '';
    return ch ?? '';
  });
}

/** Index just past the string starting at `i` (a quote), and its unescaped content. */
function readString(css: string, i: number): { end: number; value: string } {
  const quote = css[i];
  let j = i + 1;
  while (j < css.length && css[j] !== quote) {
    if (css[j] === '\\') j++;
    else if (css[j] === '\n') break; // unterminated: ends at the line (CSS error recovery)
    j++;
  }
  return { end: Math.min(j + 1, css.length), value: unescapeCss(css.slice(i + 1, j)) };
}

export function findCssReferences(css: string): CssReference[] {
  const refs: CssReference[] = [];
  let importAt: number | undefined;
  const imageSetDepths: number[] = [];
  let depth = 0;
  let i = 0;
  while (i < css.length) {
    const c = css[i]!;
    if (c === '/' && css[i + 1] === '*') {
      const close = css.indexOf('*/', i + 2);
      i = close < 0 ? css.length : close + 2;
      continue;
    }
    if (c === '"' || c === "'") {
      const { end, value } = readString(css, i);
      if (importAt !== undefined) {
        refs.push({ kind: 'import', url: value, start: i, end, ruleStart: importAt, ruleEnd: ruleEnd(css, end) });
        importAt = undefined;
      } else if (imageSetDepths.length > 0 && imageSetDepths.at(-1) === depth) {
        refs.push({ kind: 'image-set', url: value, start: i, end });
      }
      i = end;
      continue;
    }
    if ((c === 'u' || c === 'U') && /^url\(/i.test(css.slice(i, i + 4)) && !isIdentChar(css[i - 1])) {
      let j = i + 4;
      while (/\s/.test(css[j] ?? '')) j++;
      let value: string;
      if (css[j] === '"' || css[j] === "'") {
        const s = readString(css, j);
        value = s.value;
        j = s.end;
        while (j < css.length && css[j] !== ')') j++;
      } else {
        let stop = j;
        while (stop < css.length && css[stop] !== ')') stop += css[stop] === '\\' ? 2 : 1;
        stop = Math.min(stop, css.length);
        value = unescapeCss(css.slice(j, stop).trim());
        j = stop;
      }
      const end = Math.min(j + 1, css.length);
      if (importAt !== undefined) {
        refs.push({ kind: 'import', url: value, start: i, end, ruleStart: importAt, ruleEnd: ruleEnd(css, end) });
        importAt = undefined;
      } else {
        refs.push({ kind: 'url', url: value, start: i, end });
      }
      i = end;
      continue;
    }
    if (c === '@' && /^@import\b/i.test(css.slice(i, i + 8))) {
      importAt = i;
      i += 7;
      continue;
    }
    const imageSet = /^(-webkit-)?image-set\(/i.exec(css.slice(i, i + 18));
    if (imageSet && !isIdentChar(css[i - 1])) {
      depth++;
      imageSetDepths.push(depth);
      i += imageSet[0].length;
      continue;
    }
    if (c === '(') depth++;
    else if (c === ')') {
      if (imageSetDepths.at(-1) === depth) imageSetDepths.pop();
      depth = Math.max(0, depth - 1);
    } else if (c === ';' || c === '{' || c === '}') importAt = undefined;
    i++;
  }
  return refs;
}

function ruleEnd(css: string, from: number): number {
  const semi = css.indexOf(';', from);
  return semi < 0 ? css.length : semi + 1;
}

/** A CSS string literal for `value` (double quotes, escaped). */
export function cssString(value: string): string {
  return `"${value.replace(/[\\"]/g, '\\$&').replace(/\n/g, '\\a ')}"`;
}

/** An empty image that makes no request, for dropped references. */
export const EMPTY_CSS_URL = 'data:,';

/**
 * Rewrites every reference through `map`: a string becomes the new URL, `null` drops it
 * (url() and image-set entries become an empty data: URL, @import rules are removed),
 * `undefined` keeps the reference untouched.
 */
export function rewriteCss(css: string, map: (ref: CssReference) => string | null | undefined): string {
  const refs = findCssReferences(css);
  let out = '';
  let at = 0;
  for (const ref of refs) {
    const target = map(ref);
    if (target === undefined) continue;
    if (target === null && ref.kind === 'import') {
      out += css.slice(at, ref.ruleStart);
      at = ref.ruleEnd!;
      continue;
    }
    const url = target ?? EMPTY_CSS_URL;
    out += css.slice(at, ref.start) + (ref.kind === 'image-set' ? cssString(url) : `url(${cssString(url)})`);
    at = ref.end;
  }
  return out + css.slice(at);
}
