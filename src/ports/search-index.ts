/** One heading section of a rendered page: the unit of documentation search. */
export interface SectionInput {
  /** Site-relative path of the page, e.g. /guide/install/ (no origin). */
  path: string;
  /** Fragment id of the heading, without '#', when the heading has one. */
  anchor?: string;
  /** Page title. */
  title: string;
  /** Heading hierarchy from h1 down to this section's heading. */
  headings: string[];
  /** Plain text of the section. */
  content: string;
  language?: string;
  tags?: string[];
}

/** Where rendered pages go to become searchable (PostgreSQL full-text search is the adapter). */
export interface SearchIndex {
  /** Atomically replaces all sections of a domain's version (undefined version = unversioned). */
  replaceSections(domain: string, version: string | undefined, sections: readonly SectionInput[]): Promise<{ inserted: number }>;
}
