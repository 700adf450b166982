/**
 * The one tokenizer of offline search. It runs in Node (building the index) and in the
 * exported pages (the widget embeds its source via toString()), so it must stay
 * self-contained: no imports, no closures.
 */
export function searchTerms(text: string): string[] {
  const folded = text.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  const out: string[] = [];
  for (const word of folded.split(/[^\p{L}\p{N}_]+/u)) {
    // Keep single characters only for scripts without spaces between words (CJK and similar).
    if (word.length >= 2 || /[^\u0020-\u024f]/.test(word)) out.push(word.length > 40 ? word.slice(0, 40) : word);
  }
  return out;
}
