import type { SectionInput } from '../../ports/search-index.js';
import type { TextBlock } from '../browser-port.js';

/** Longest section text kept; longer sections are cut (search ranks on the start anyway). */
export const MAX_SECTION_CHARS = 20_000;

/** Permalink markers that themes append to headings (Sphinx ¶, MkDocs #, GitHub-style 🔗). */
export function cleanHeading(text: string): string {
  return text.replace(/\s+/g, ' ').trim().replace(/(\s*[¶#§🔗\uf0c1])+$/u, '').trim();
}

export function parseTags(declarations: readonly string[]): string[] {
  const tags = declarations.flatMap((d) => d.split(',')).map((t) => t.trim()).filter((t) => t !== '' && t.length <= 64);
  return [...new Set(tags)].slice(0, 32);
}

export interface PageFacts {
  path: string;
  title: string;
  lang?: string;
  tags: readonly string[];
}

/**
 * One section per heading, with the heading hierarchy above it; text before the first
 * heading becomes a section of its own (no anchor) when it is not empty. A heading
 * with no text under it still makes a section: its title is worth finding.
 */
export function buildSections(blocks: readonly TextBlock[], page: PageFacts): SectionInput[] {
  const sections: SectionInput[] = [];
  const stack: Array<{ level: number; text: string }> = [];
  const title = page.title.trim() || cleanHeading(blocks.find((b) => b.heading)?.heading?.text ?? '') || page.path;
  const common = {
    path: page.path,
    title,
    ...(page.lang ? { language: page.lang } : {}),
    ...(page.tags.length > 0 ? { tags: [...page.tags] } : {}),
  };
  for (const block of blocks) {
    const content = block.text.replace(/\s+/g, ' ').trim().slice(0, MAX_SECTION_CHARS);
    if (!block.heading) {
      if (content !== '') sections.push({ ...common, headings: stack.map((h) => h.text), content });
      continue;
    }
    const text = cleanHeading(block.heading.text);
    if (text === '') {
      // An empty heading (icon-only) does not open a section; its text joins the current one.
      const last = sections.at(-1);
      if (last && content !== '') last.content = `${last.content} ${content}`.trim().slice(0, MAX_SECTION_CHARS);
      else if (content !== '') sections.push({ ...common, headings: stack.map((h) => h.text), content });
      continue;
    }
    while (stack.length > 0 && stack.at(-1)!.level >= block.heading.level) stack.pop();
    stack.push({ level: block.heading.level, text });
    sections.push({
      ...common,
      ...(block.heading.anchor ? { anchor: block.heading.anchor } : {}),
      headings: stack.map((h) => h.text),
      content,
    });
  }
  return sections;
}
