import assert from "node:assert/strict";
import fc from "fast-check";
import { BRANCH_PREFIX, folderNameOf, freeBranchName, slugOf } from "../../../src/worktrees/branch-names";

/** What git's `check-ref-format` would refuse in one part of a ref, for the characters a slug can hold and more. */
const REF_PART_TROUBLE = /\.\.|^[.-]|[.]$|\.lock$|[\s~^:?*[\\\x00-\x1f\x7f]|@\{/;

describe("worktree branch names", () => {
  describe("slugOf", () => {
    it("makes lower-case words of the title joined by -", () => {
      assert.equal(slugOf("Add notes"), "add-notes");
      assert.equal(slugOf("  Fix the LOGIN bug!!  (again) "), "fix-the-login-bug-again");
      assert.equal(slugOf("refactor: src/chat/agent-loop.ts"), "refactor-src-chat-agent-loop-ts");
    });

    it("drops accents and characters git would refuse, and says chat when nothing is left", () => {
      assert.equal(slugOf("Café déjà vu"), "cafe-deja-vu");
      assert.equal(slugOf("a..b ~^:?*[\\ x.lock @{u}"), "a-b-x-lock-u");
      assert.equal(slugOf(""), "chat");
      assert.equal(slugOf("¿¡!!!?"), "chat");
      assert.equal(slugOf("日本語のタイトル"), "chat");
    });

    it("stops at whole words within 40 characters, and cuts a first word longer than that", () => {
      const title = "one two three four five six seven eight nine ten";
      const slug = slugOf(title);
      assert.equal(slug, "one-two-three-four-five-six-seven-eight");
      assert.ok(slug.length <= 40);
      assert.equal(slugOf(`${"x".repeat(60)} tail`), "x".repeat(40));
    });

    it("is always 1 to 40 characters of words of [a-z0-9] joined by single dashes, valid in a ref (property)", () => {
      fc.assert(
        fc.property(fc.string({ maxLength: 300, unit: "grapheme" }), (title) => {
          const slug = slugOf(title);
          assert.match(slug, /^[a-z0-9]+(?:-[a-z0-9]+)*$/);
          assert.ok(slug.length >= 1 && slug.length <= 40, slug);
          assert.doesNotMatch(slug, REF_PART_TROUBLE);
        }),
        { numRuns: 500 },
      );
    });

    it("keeps the title's ASCII words in order (property)", () => {
      const word = fc.stringMatching(/^[a-z0-9]{1,8}$/);
      fc.assert(
        fc.property(
          fc.array(word, { minLength: 1, maxLength: 4 }),
          fc.constantFrom(" ", " - ", "_", ", "),
          (words, sep) => {
            assert.equal(slugOf(words.join(sep)), words.join("-"));
          },
        ),
      );
    });
  });

  describe("freeBranchName", () => {
    it("is parley/<slug>, or with -2, -3… past the names that exist", () => {
      assert.equal(
        freeBranchName("Add notes", () => false),
        "parley/add-notes",
      );
      const taken = new Set(["parley/add-notes", "parley/add-notes-2"]);
      assert.equal(
        freeBranchName("Add notes", (name) => taken.has(name)),
        "parley/add-notes-3",
      );
      // A gap is filled: the first free number wins.
      const gap = new Set(["parley/x", "parley/x-3"]);
      assert.equal(
        freeBranchName("x", (name) => gap.has(name)),
        "parley/x-2",
      );
    });

    it("never names an existing branch, and takes the smallest free number (property)", () => {
      fc.assert(
        fc.property(
          fc.string({ maxLength: 60 }),
          fc.array(fc.integer({ min: 1, max: 12 }), { maxLength: 12 }),
          (title, ns) => {
            const base = `${BRANCH_PREFIX}${slugOf(title)}`;
            const taken = new Set(ns.map((n) => (n === 1 ? base : `${base}-${n}`)));
            const name = freeBranchName(title, (candidate) => taken.has(candidate));
            assert.ok(!taken.has(name), name);
            assert.ok(name.startsWith(BRANCH_PREFIX));
            if (name === base) return;
            const n = Number(name.slice(base.length + 1));
            assert.ok(name === `${base}-${n}` && n >= 2, name);
            assert.ok(taken.has(base), "the plain name was taken");
            for (let k = 2; k < n; k++) assert.ok(taken.has(`${base}-${k}`), `${base}-${k} was free`);
          },
        ),
      );
    });
  });

  describe("folderNameOf", () => {
    it("is the branch's last part and the random suffix", () => {
      assert.equal(folderNameOf("parley/add-notes", "1a2b3c4d"), "add-notes-1a2b3c4d");
      assert.equal(folderNameOf("plain", "ff"), "plain-ff");
      assert.equal(folderNameOf(`team/${"y".repeat(80)}`, "00"), `${"y".repeat(40)}-00`);
      assert.equal(folderNameOf("", "ab"), "chat-ab");
    });

    it("is one path part, never a parent or hidden folder, ending in its suffix (property)", () => {
      const part = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,60}$/);
      fc.assert(
        fc.property(
          fc.array(part, { minLength: 1, maxLength: 4 }),
          fc.stringMatching(/^[0-9a-f]{8}$/),
          (parts, random) => {
            const name = folderNameOf(parts.join("/"), random);
            assert.ok(!name.includes("/"), name);
            assert.ok(name.endsWith(`-${random}`));
            assert.ok(!name.startsWith("."), name);
            assert.ok(name.length <= 40 + 1 + random.length);
          },
        ),
      );
    });
  });
});
