/**
 * format=apkg: the flashcard deck as an Anki package, a zip of `collection.anki2` (an SQLite
 * collection in Anki's schema 11, which every Anki version imports) and an empty `media` map. One
 * Basic (front/back) note and one card per flashcard, tagged with the course and the chapter the
 * card comes from. The collection is small (at most 200 cards), so it is built in memory.
 */
import { Database } from "bun:sqlite";
import type { Flashcard } from "../llm/artefacts.ts";
import { slugify } from "../util.ts";
import type { ExportChapter, ExportCourse } from "./course-export.ts";
import { numbered } from "./names.ts";
import { plainText } from "./xml.ts";
import type { ZipEntry } from "./zip-stream.ts";

/** Anki's collection schema 11 (col, notes, cards, revlog, graves). */
const SCHEMA = `
CREATE TABLE col (id integer primary key, crt integer not null, mod integer not null, scm integer not null,
  ver integer not null, dty integer not null, usn integer not null, ls integer not null, conf text not null,
  models text not null, decks text not null, dconf text not null, tags text not null);
CREATE TABLE notes (id integer primary key, guid text not null, mid integer not null, mod integer not null,
  usn integer not null, tags text not null, flds text not null, sfld integer not null, csum integer not null,
  flags integer not null, data text not null);
CREATE TABLE cards (id integer primary key, nid integer not null, did integer not null, ord integer not null,
  mod integer not null, usn integer not null, type integer not null, queue integer not null, due integer not null,
  ivl integer not null, factor integer not null, reps integer not null, lapses integer not null, left integer not null,
  odue integer not null, odid integer not null, flags integer not null, data text not null);
CREATE TABLE revlog (id integer primary key, cid integer not null, usn integer not null, ease integer not null,
  ivl integer not null, lastIvl integer not null, factor integer not null, time integer not null, type integer not null);
CREATE TABLE graves (usn integer not null, oid integer not null, type integer not null);
CREATE INDEX ix_notes_usn on notes (usn);
CREATE INDEX ix_cards_usn on cards (usn);
CREATE INDEX ix_revlog_usn on revlog (usn);
CREATE INDEX ix_cards_nid on cards (nid);
CREATE INDEX ix_cards_sched on cards (did, queue, due);
CREATE INDEX ix_revlog_cid on revlog (cid);
CREATE INDEX ix_notes_csum on notes (csum);
`;

/** A stable 31-bit id from a string, so re-importing an export updates the same deck and note type. */
function idOf(text: string): number {
  const hex = new Bun.CryptoHasher("sha1").update(text).digest("hex");
  return (parseInt(hex.slice(0, 8), 16) & 0x3fffffff) + 1_000_000_000;
}

/** Anki's note checksum: the first 8 hex digits of the SHA-1 of the sort field's text. */
const checksum = (text: string) => parseInt(new Bun.CryptoHasher("sha1").update(text).digest("hex").slice(0, 8), 16);

/** Anki's GUID alphabet (base91) over a hash: the same card in a later export is the same note. */
function guidOf(text: string): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&()*+,-./:;<=>?@[]^_`{|}~";
  let n = BigInt(`0x${new Bun.CryptoHasher("sha256").update(text).digest("hex").slice(0, 16)}`);
  let out = "";
  while (n > 0n) {
    out = alphabet[Number(n % 91n)] + out;
    n /= 91n;
  }
  return out || "a";
}

const words = (text: string) => new Set(text.toLowerCase().match(/\p{L}[\p{L}\p{N}'-]{3,}/gu) ?? []);

/**
 * The chapter a card belongs to: the one whose key concept the front names, else the one whose
 * text shares the most words with the card (decks cover the whole course and do not say). Each
 * chapter's words are collected once, not once per card.
 */
function cardChapterFinder(chapters: ExportChapter[]): (card: Flashcard) => ExportChapter | null {
  const chapterWords = chapters.map((c) => words(c.content));
  return (card) => {
    const front = card.front.toLowerCase();
    const named = chapters.find((c) => c.keyConcepts.some((k) => k.length > 2 && front.includes(k.toLowerCase())));
    if (named) return named;
    const cardWords = words(`${card.front} ${card.back}`);
    let best: ExportChapter | null = null;
    let bestScore = 0;
    for (const [i, c] of chapters.entries()) {
      const text = chapterWords[i]!;
      const score = [...cardWords].filter((w) => text.has(w)).length;
      if (score > bestScore) [best, bestScore] = [c, score];
    }
    return best;
  };
}

/** Field text as Anki shows it: fields are HTML, so text is escaped and line breaks kept. */
/** Anki reads "::" as a sub-deck and shows control characters as boxes: one line of plain text. */
const deckName = (title: string) => plainText(title).replace(/\s+/g, " ").replace(/::/g, ":").trim();

const field = (text: string) => Bun.escapeHTML(text.trim()).replace(/\r?\n/g, "<br>");

/** The collection database file. */
function ankiCollection(course: ExportCourse, now: Date): Uint8Array {
  const deck = course.flashcards!;
  const db = new Database(":memory:");
  try {
    db.exec(SCHEMA);
    const ms = now.getTime();
    const secs = Math.floor(ms / 1000);
    const deckId = idOf(`deck:${course.id}`);
    const modelId = idOf(`model:courseforge-basic`);
    const model = {
      id: String(modelId),
      name: "Courseforge Basic",
      type: 0,
      mod: secs,
      usn: -1,
      sortf: 0,
      did: deckId,
      tags: [],
      vers: [],
      css: ".card { font-family: sans-serif; font-size: 20px; text-align: center; color: black; background-color: white; }",
      latexPre:
        "\\documentclass[12pt]{article}\n\\special{papersize=3in,5in}\n\\usepackage{amssymb,amsmath}\n\\pagestyle{empty}\n\\setlength{\\parindent}{0in}\n\\begin{document}\n",
      latexPost: "\\end{document}",
      flds: ["Front", "Back"].map((name, ord) => ({
        name,
        ord,
        sticky: false,
        rtl: false,
        font: "Arial",
        size: 20,
        media: [],
      })),
      tmpls: [
        {
          name: "Card 1",
          ord: 0,
          qfmt: "{{Front}}",
          afmt: '{{FrontSide}}<hr id="answer">{{Back}}',
          did: null,
          bqfmt: "",
          bafmt: "",
        },
      ],
      req: [[0, "all", [0]]],
    };
    const deckJson = (id: number, name: string) => ({
      id,
      name,
      desc: "",
      conf: 1,
      dyn: 0,
      collapsed: false,
      extendNew: 10,
      extendRev: 50,
      usn: -1,
      mod: secs,
      newToday: [0, 0],
      revToday: [0, 0],
      lrnToday: [0, 0],
      timeToday: [0, 0],
    });
    const conf = {
      activeDecks: [1],
      curDeck: 1,
      curModel: String(modelId),
      nextPos: deck.cards.length + 1,
      sortType: "noteFld",
      sortBackwards: false,
      newSpread: 0,
      dueCounts: true,
      estTimes: true,
      collapseTime: 1200,
      timeLim: 0,
      addToCur: true,
    };
    const dconf = {
      "1": {
        id: 1,
        name: "Default",
        mod: 0,
        usn: 0,
        maxTaken: 60,
        autoplay: true,
        timer: 0,
        replayq: true,
        dyn: false,
        new: {
          bury: true,
          delays: [1, 10],
          initialFactor: 2500,
          ints: [1, 4, 7],
          order: 1,
          perDay: 20,
          separate: true,
        },
        lapse: { delays: [10], leechAction: 0, leechFails: 8, minInt: 1, mult: 0 },
        rev: { bury: true, ease4: 1.3, fuzz: 0.05, ivlFct: 1, maxIvl: 36500, minSpace: 1, perDay: 100 },
      },
    };
    db.run("INSERT INTO col VALUES (1, ?, ?, ?, 11, 0, 0, 0, ?, ?, ?, ?, '{}')", [
      secs,
      ms,
      ms,
      JSON.stringify(conf),
      JSON.stringify({ [String(modelId)]: model }),
      JSON.stringify({
        "1": deckJson(1, "Default"),
        [String(deckId)]: deckJson(deckId, deckName(deck.deck_title)),
      }),
      JSON.stringify(dconf),
    ]);
    const courseTag = `course::${slugify(course.title)}`;
    const addNote = db.prepare("INSERT INTO notes VALUES (?, ?, ?, ?, -1, ?, ?, ?, ?, 0, '')");
    const addCard = db.prepare("INSERT INTO cards VALUES (?, ?, ?, 0, ?, -1, 0, 0, ?, 0, 0, 0, 0, 0, 0, 0, 0, '')");
    const chapterOfCard = cardChapterFinder(course.chapters);
    db.transaction(() => {
      for (const [i, card] of deck.cards.entries()) {
        const chapter = chapterOfCard(card);
        const tags = [courseTag, ...(chapter ? [`chapter::${numbered(chapter.index, chapter.title)}`] : [])];
        const front = field(card.front);
        // Ids are millisecond timestamps in Anki; consecutive ones keep them unique and in deck order.
        addNote.run(
          ms + i,
          guidOf(`${course.id}\n${card.front}`),
          modelId,
          secs,
          ` ${tags.join(" ")} `,
          `${front}\x1f${field(card.back)}`,
          front,
          checksum(card.front.trim()),
        );
        addCard.run(ms + i, ms + i, deckId, secs, i + 1);
      }
    })();
    return db.serialize();
  } finally {
    db.close();
  }
}

/** `now` stamps the collection and its cards, as Anki does when it makes them. */
export function* apkgEntries(course: ExportCourse, now: Date): Iterable<ZipEntry> {
  yield { name: "collection.anki2", data: ankiCollection(course, now) };
  yield { name: "media", data: "{}" };
}
