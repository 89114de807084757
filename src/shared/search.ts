// Search across chats (contract 7.4): what GET /api/search takes and answers.
import { z } from "zod";

/** Longer queries are refused (400): no one types them, and each word costs the index a lookup. */
export const MAX_SEARCH_QUERY_CHARS = 1_000;

export const searchQuerySchema = z.object({
  /** The user's words, searched as plain text (quotes, `*`, `NEAR(`, `AND`… are text); empty answers `[]`. */
  q: z.string().max(MAX_SEARCH_QUERY_CHARS, `the query must be at most ${MAX_SEARCH_QUERY_CHARS} characters`),
  /** Only this project's chats; absent: every project's. */
  projectDir: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type SearchQuery = z.infer<typeof searchQuerySchema>;

/**
 * One message that matches, best match first (bm25). `snippet` is plain text around the match in which
 * the matched words are wrapped in `<mark>`…`</mark>` and every other `&`, `<` and `>` is written as
 * `&amp;`, `&lt;`, `&gt;`: the marks are the only tags, so a client can split on them and show the rest
 * as text. `at` is when the message was written.
 */
export const searchHitSchema = z.object({
  chatId: z.string(),
  messageId: z.string(),
  title: z.string(),
  snippet: z.string(),
  at: z.string(),
});
export type SearchHit = z.infer<typeof searchHitSchema>;
