import type { SectionInput } from '../../ports/search-index.js';
import { searchTerms } from './search-terms.js';

/** A section as the offline index knows it, with its page's export path. */
export interface OfflineSection {
  section: SectionInput;
  /** Export path of the page, e.g. guide/install/index.html. */
  file: string;
}

/**
 * The offline search index: a document table and an inverted index, shipped as a classic
 * script (`window.DOCPORT_SEARCH_INDEX = ...`) because fetch() and XHR fail on file://.
 *   docs:  [file, anchor, page title, heading path (" › "), snippet]
 *   terms: term -> ascending doc numbers
 * Terms found in more than half of a large export's sections carry no signal and are left out.
 */
export interface OfflineIndex {
  version: 1;
  docs: Array<[string, string, string, string, string]>;
  terms: Record<string, number[]>;
}

export const SNIPPET_CHARS = 180;

export function buildOfflineIndex(entries: readonly OfflineSection[]): OfflineIndex {
  const docs: OfflineIndex['docs'] = [];
  const postings = new Map<string, number[]>();
  entries.forEach(({ section, file }, doc) => {
    docs.push([file, section.anchor ?? '', section.title, section.headings.join(' › '), section.content.slice(0, SNIPPET_CHARS)]);
    const terms = new Set(searchTerms(`${section.title} ${section.headings.join(' ')} ${section.content}`));
    for (const term of terms) {
      const list = postings.get(term);
      if (list) list.push(doc);
      else postings.set(term, [doc]);
    }
  });
  const limit = docs.length >= 200 ? docs.length / 2 : Infinity;
  const terms: Record<string, number[]> = {};
  for (const term of [...postings.keys()].sort()) {
    const list = postings.get(term)!;
    if (list.length <= limit) terms[term] = list;
  }
  return { version: 1, docs, terms };
}

export const OFFLINE_INDEX_GLOBAL = 'DOCPORT_SEARCH_INDEX';

export function offlineIndexScript(index: OfflineIndex): string {
  // JSON is valid JavaScript; escaping "<" keeps "</script>" from ever appearing in it.
  return `window.${OFFLINE_INDEX_GLOBAL} = ${JSON.stringify(index).replace(/</g, '\\u003c')};\n`;
}
