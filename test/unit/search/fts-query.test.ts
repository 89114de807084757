// The search box's words as an FTS5 query: every input is text to look for, never syntax. The
// builder's output is also run against the real index (migration 8's table), so "valid FTS5" is
// proven by SQLite, not assumed.
import assert from "node:assert/strict";
import path from "node:path";
import { openDatabase, type Db } from "../../../src/platform/db";
import { ChatsRepo } from "../../../src/chat/chats-repo";
import { MessagesRepo } from "../../../src/chat/messages-repo";
import { ProjectsRepo } from "../../../src/projects/projects-repo";
import { MAX_QUERY_WORDS, ftsQuery, searchWords } from "../../../src/search/fts-query";
import { SearchRepo } from "../../../src/search/search-repo";
import { makeTempDir, removeDir } from "../../helpers/temp";

describe("ftsQuery", () => {
  it("quotes each word and makes the last one a prefix", () => {
    assert.equal(ftsQuery("hello wor"), '"hello" "wor"*');
    assert.equal(ftsQuery("  spaced \t out\n"), '"spaced" "out"*');
  });

  it("doubles quotes inside a word", () => {
    assert.equal(ftsQuery('say "hi"'), '"say" """hi"""*');
    assert.equal(ftsQuery('a"bc'), '"a""bc"*');
  });

  it("keeps FTS5 operators and punctuation as text", () => {
    assert.equal(ftsQuery("cats AND dogs"), '"cats" "AND" "dogs"*');
    assert.equal(ftsQuery("NEAR(a b)"), '"NEAR(a" "b)"');
    assert.equal(ftsQuery("col:value ^start x*"), '"col:value" "^start" "x*"');
  });

  it("leaves out words the tokenizer finds nothing in, and answers nothing for a query of only those", () => {
    assert.equal(ftsQuery("foo - bar"), '"foo" "bar"*');
    assert.equal(ftsQuery(`- * " ( ) ""`), undefined);
    assert.equal(ftsQuery(""), undefined);
    assert.equal(ftsQuery("   "), undefined);
  });

  it("turns control characters into spaces (FTS5 would read a NUL as the query's end)", () => {
    assert.equal(ftsQuery("ab\0cd"), '"ab" "cd"*');
    assert.equal(ftsQuery("\u0007"), undefined);
  });

  it("leaves a one-character last word exact (a prefix of one letter costs more than it finds)", () => {
    assert.equal(ftsQuery("plan s"), '"plan" "s"');
    assert.equal(ftsQuery("st"), '"st"*');
    assert.equal(ftsQuery("a-b"), '"a-b"', "the prefix would be on `b`");
    assert.equal(ftsQuery("é"), '"é"');
  });

  it(`keeps the first ${MAX_QUERY_WORDS} words`, () => {
    const words = Array.from({ length: 40 }, (_, i) => `w${i}`);
    const query = ftsQuery(words.join(" "))!;
    assert.equal(query.split(" ").length, MAX_QUERY_WORDS);
    assert.ok(query.endsWith(`"w${MAX_QUERY_WORDS - 1}"*`));
  });
});

describe("ftsQuery against the real index", () => {
  let dir: string;
  let db: Db;
  let search: SearchRepo;
  before(() => {
    dir = makeTempDir();
    db = openDatabase(path.join(dir, "store.sqlite"));
    const project = new ProjectsRepo(db).ensure("/p").project;
    const chat = new ChatsRepo(db).create({ projectId: project.id, title: "Notes" });
    const messages = new MessagesRepo(db);
    for (const content of [
      'He said "NEAR(x y)" AND then - left',
      "cats and dogs; a café at the corner",
      "SELECT * FROM t WHERE a = 'b' -- a comment",
    ])
      messages.append(chat.id, { role: "user", content, status: "complete" });
    search = new SearchRepo(db);
  });
  after(() => {
    db.close();
    removeDir(dir);
  });

  const find = (text: string) => {
    const words = searchWords(text);
    return words === undefined ? [] : search.search(words, 20).map((hit) => hit.snippet);
  };

  it("finds text that looks like syntax", () => {
    assert.equal(find('"NEAR(x').length, 1);
    assert.equal(find("AND").length, 2, "the word `and`, in any case");
    assert.equal(find("cafe").length, 1, "diacritics folded");
    assert.equal(find("caf").length, 1, "the last word as a prefix");
    assert.equal(find("cats dogs").length, 1, "every word");
    assert.equal(find("cats nothing").length, 0);
  });

  it("never makes SQLite fail, whatever is typed", () => {
    const pieces = [
      '"',
      "'",
      "*",
      "-",
      "+",
      "(",
      ")",
      "NEAR(",
      "NOT",
      "OR",
      "AND",
      ":",
      "^",
      "{",
      "}",
      "\\",
      "\0",
      "\uD800",
      "é",
      "🙂",
      "\u2028",
    ];
    const random = (n: number) =>
      Array.from({ length: n }, () => pieces[Math.floor(Math.random() * pieces.length)]).join(
        Math.random() < 0.5 ? " " : "",
      );
    for (let i = 0; i < 500; i++) {
      const text = `${random(1 + (i % 9))} ${i % 3 === 0 ? "cats" : ""}${random(i % 4)}`;
      assert.doesNotThrow(() => find(text), `query ${JSON.stringify(text)}`);
    }
  });
});
