/** One search hit: a heading section of a page. */
export interface SearchHit {
  content: string;
  path: string;
  anchor?: string;
  title: string;
  headings: string[];
  version?: string;
  language?: string;
  tags: string[];
  /** Relevance normalized to 0..1 (higher is better). */
  score: number;
}

export interface SearchRequest {
  query: string;
  pageSize: number;
  scoreThreshold: number;
  filter: { version?: string | undefined; language?: string | undefined; tag?: string | undefined };
}

/** Full-text queries over indexed sections (the writing side is the SearchIndex port). */
export interface SearchQueries {
  /** Hits of a domain ordered by score (highest first), only those with score >= scoreThreshold. */
  search(domain: string, request: SearchRequest): Promise<SearchHit[]>;
}
