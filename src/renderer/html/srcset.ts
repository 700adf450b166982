/** srcset parsing and serialization, following the HTML standard's candidate parsing. */

export interface SrcsetCandidate {
  url: string;
  /** Width/density descriptor as written ("2x", "640w"), or '' when absent. */
  descriptor: string;
}

export function parseSrcset(value: string): SrcsetCandidate[] {
  const out: SrcsetCandidate[] = [];
  let i = 0;
  const n = value.length;
  const isSpace = (c: string | undefined): boolean => c !== undefined && /[\t\n\f\r ]/.test(c);
  while (i < n) {
    while (i < n && (isSpace(value[i]) || value[i] === ',')) i++;
    if (i >= n) break;
    const start = i;
    while (i < n && !isSpace(value[i])) i++;
    let url = value.slice(start, i);
    let descriptor = '';
    if (url.endsWith(',')) {
      url = url.replace(/,+$/, '');
    } else {
      const dStart = i;
      let parens = 0;
      while (i < n) {
        const c = value[i];
        if (c === '(') parens++;
        else if (c === ')') parens = Math.max(0, parens - 1);
        else if (c === ',' && parens === 0) break;
        i++;
      }
      descriptor = value.slice(dStart, i).trim().replace(/\s+/g, ' ');
      i++; // past the comma
    }
    if (url !== '') out.push({ url, descriptor });
  }
  return out;
}

export function serializeSrcset(candidates: readonly SrcsetCandidate[]): string {
  // URLs in srcset must not contain whitespace and must not start or end with a comma.
  return candidates
    .map((c) => `${c.url.replace(/[\s]/g, (s) => encodeURIComponent(s)).replace(/^,|,$/g, '%2C')}${c.descriptor ? ` ${c.descriptor}` : ''}`)
    .join(', ');
}
