/**
 * A small trade book built the way publishers lay one out, as a PDF and as a Word file: front
 * matter (cover, half-title, title page, a copyright page with no heading, a dedication, contents),
 * a preface, three chapters, and an index at the back. The front and back pages use words the
 * chapters never use, so a test can tell whether anything of them was taught.
 */
import { PDFDocument, StandardFonts } from "pdf-lib";
import { docxWithStyles } from "../ingest/build-fixtures.ts";

export const BOOK_TITLE = "The Tides of Lake Morrow";

export const CHAPTERS: { title: string; text: string }[] = [
  {
    title: "Winds over the Basin",
    text: `A seiche is a standing wave that rocks the whole lake from one shore to the other after a strong wind stops. The wind first piles water against the downwind shore, and when it eases the water flows back and overshoots. Sailors on Lake Morrow learn to expect a seiche after every autumn storm. The period of a seiche depends on the length and the depth of the basin: a long and shallow basin swings slowly, while a short and deep basin swings quickly. On Lake Morrow the main seiche takes about four hours to cross the basin and return. Harbour masters record the water level every ten minutes so that they can warn boats before the water falls at the piers. A falling level can leave a keel boat aground within an hour, so skippers watch the gauge before they leave the harbour. A barometer gives an earlier warning than the gauge, because the pressure falls before the storm winds arrive. A fetch is the distance over open water that a wind blows without meeting land, and a long fetch raises higher waves. The north wind on Lake Morrow has the longest fetch, so the south harbour sees the steepest waves of the year. A squall line is a band of thunderstorms that brings a sudden shift of wind and a burst of rain. Dinghy sailors reef their sails when a squall line darkens the western sky. Calm mornings usually follow a night of land breeze, which blows from the cooling shore towards the warmer water. A sea breeze on a large lake is called a lake breeze, and it blows from the cool water towards the warm land in the afternoon. The lake breeze usually starts around noon and dies at sunset. A gust front is the leading edge of cold air that flows out of a thunderstorm, and it can arrive many minutes before the rain. Sailors measure the wind with an anemometer, a small cup wheel that spins faster as the wind grows stronger.`,
  },
  {
    title: "Currents along the Shore",
    text: `A longshore current is a flow of water that runs parallel to the beach, driven by waves that arrive at an angle. The current carries sand along the shore and builds long spits at the mouths of the bays. Swimmers feel the longshore current as a steady push along the beach rather than away from it. A rip current is a narrow jet of water that flows straight away from the shore through a gap in the sandbar. Rip currents form where the water that waves have pushed onto the beach finds the easiest way back to deep water. A swimmer caught in a rip current should swim parallel to the shore until the pull weakens, and only then turn back to the beach. Lifeguards on Lake Morrow mark the rip channels with red flags every morning after they survey the sandbars. A sandbar is a long ridge of sand that lies parallel to the beach under shallow water. Waves break on the sandbar first, so a line of surf far from the beach shows where the bar lies. An undertow is the return flow of water along the bottom beneath breaking waves. The undertow feels strong in the surf zone, but it never carries a swimmer far from the beach. A groyne is a low wall built out from the shore to trap the sand that the longshore current carries. Each groyne on the east shore of Lake Morrow holds a wide beach on its upstream side and a narrow one on its downstream side. A breakwater is a wall built offshore to shelter a harbour from waves. Behind the breakwater of the south harbour the water stays calm even in a northern gale. Beach cusps are regular scallops of sand along the waterline, shaped by waves that run up and down the beach. Erosion of a bluff happens when high water lets waves strike the foot of the slope and carry its sand away.`,
  },
  {
    title: "Reading the Water",
    text: `A sailor reads the water by watching its colour, its texture and the lines of foam on its surface. Dark patches of ripples show where a gust is coming before it reaches the boat. Smooth streaks of water mark the edges of currents, where two flows meet and calm each other. A line of foam often lies along a convergence, the place where two surface currents push against each other and the water sinks. Shallow water over a sandbar looks lighter and breaks earlier than the deep water around it. Good skippers on Lake Morrow combine these signs with the harbour gauge and the forecast, and they plan every passage so that they return before the evening seiche lowers the water at the piers. A wind shadow is the calm patch of water behind an island or a headland, where the wind cannot reach. Boats that sail into a wind shadow lose speed suddenly and should steer around it. Cat's paws are small patches of ripples that light gusts draw across calm water. A lull is a short period of weaker wind between two gusts, and a skipper trims the sails for it before it arrives. Upwelling brings cold water from the depths to the surface when a steady wind pushes the warm surface water offshore. Swimmers notice upwelling as a sudden chill on a sunny day, and anglers know that fish gather along its edge. A lee shore is the shore towards which the wind blows, and a boat that loses power near it drifts onto the rocks. Skippers keep plenty of sea room between the boat and a lee shore. A transit is a pair of fixed marks on land that line up along a safe course, such as a church tower behind a harbour light. Keeping the two marks in line lets a skipper hold a course across a current without any instrument.`,
  },
];

const PREFACE = `This guide grew out of twenty summers of teaching small-boat sailing on Lake Morrow. It explains why the water of a large lake moves, how winds and waves drive its currents, and how a sailor can read those movements from the deck of a dinghy. Each chapter starts from what a sailor sees on the water and ends with what a sailor should do about it.`;

/** Phrases that stand only on the front and back pages: none of them may be taught. */
export const FRONT_AND_BACK = [
  "Small-Boat Sailors",
  "Ellison",
  "Harbor Lane",
  "rights reserved",
  "Cataloging",
  "ISBN",
  "acid-free",
  "Printed in",
  "First Edition",
  "grandmother",
  "patience",
  "Quay Street",
];

const COPYRIGHT_PAGE = [
  "Copyright © 2019 by Mara Ellison. All rights reserved.",
  "Published by Harbor Lane Press, 14 Quay Street, Portland, Maine 04101.",
  "No part of this book may be reproduced without the written permission of the publisher.",
  "Library of Congress Cataloging-in-Publication Data",
  "Ellison, Mara. The tides of Lake Morrow : a field guide / Mara Ellison.",
  "ISBN 978-1-23456-789-7 (paperback : acid-free paper)",
  "1. Limnology. 2. Sailing. I. Title.",
  "Printed in the United States of America on acid-free paper.",
  "First Edition",
  "10 9 8 7 6 5 4 3 2 1",
];

const INDEX_ENTRIES = [
  "basin, 8, 9",
  "convergence, 13",
  "current, longshore, 10",
  "current, rip, 11",
  "foam, 12, 13",
  "gauge, 9, 13",
  "gust, 12",
  "harbour, 9",
  "keel boat, 9",
  "sandbar, 11, 13",
  "seiche, 8, 9, 13",
  "spit, 10",
  "swimmer, 10, 11",
  "wind, 8, 12",
];

/** Lines of at most `width` characters, broken at spaces. */
function wrap(text: string, width = 88): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line && line.length + word.length + 1 > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** The book as a PDF: 24 pt bold headings, 11 pt text, one page per front-matter element. */
export async function bookPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const page = (heading: string | null, lines: string[], opts: { top?: number; size?: number } = {}) => {
    const p = doc.addPage([595, 842]);
    let y = opts.top ?? 780;
    if (heading) {
      p.drawText(heading, { x: 50, y, size: 24, font: bold });
      y -= 40;
    }
    for (const line of lines) {
      p.drawText(line, { x: 50, y, size: opts.size ?? 11, font: regular });
      y -= (opts.size ?? 11) * 1.3;
    }
  };
  page(BOOK_TITLE, ["A Field Guide for Small-Boat Sailors", "", "Mara Ellison"], { top: 600, size: 16 });
  page(null, [BOOK_TITLE], { top: 600, size: 16 });
  page(BOOK_TITLE, ["A Field Guide for Small-Boat Sailors", "Mara Ellison", "", "Harbor Lane Press", "Portland"], {
    top: 650,
    size: 14,
  });
  page(null, COPYRIGHT_PAGE, { top: 300, size: 9 });
  page(null, ["For my grandmother, who taught me patience on the water."], { top: 600 });
  page("Contents", ["Preface 7", ...CHAPTERS.map((c, i) => `${i + 1} ${c.title} ${8 + 2 * i}`), "Index 14"]);
  page("Preface", wrap(PREFACE));
  for (const [i, c] of CHAPTERS.entries()) {
    const lines = wrap(c.text);
    const half = Math.ceil(lines.length / 2);
    page(`${i + 1} ${c.title}`, lines.slice(0, half));
    page(null, lines.slice(half));
  }
  page("Index", INDEX_ENTRIES);
  return doc.save();
}

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

const STYLES = `<?xml version="1.0" encoding="UTF-8"?><w:styles ${W}>
<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>
<w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/><w:basedOn w:val="Normal"/></w:style>
<w:style w:type="paragraph" w:styleId="Subtitle"><w:name w:val="Subtitle"/><w:basedOn w:val="Normal"/></w:style>
<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style>
<w:style w:type="paragraph" w:styleId="TOCHeading"><w:name w:val="TOC Heading"/><w:basedOn w:val="Heading1"/></w:style>
<w:style w:type="paragraph" w:styleId="TOC1"><w:name w:val="toc 1"/><w:basedOn w:val="Normal"/></w:style>
</w:styles>`;

const run = (text: string) => `<w:r><w:t xml:space="preserve">${text}</w:t></w:r>`;
const para = (text: string, style?: string) =>
  `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ""}${run(text)}</w:p>`;
/** A cached entry of a TOC field: a link to the heading's bookmark, a tab, its page. */
const tocEntry = (title: string, pageNo: number, first: boolean, last: boolean) =>
  `<w:p><w:pPr><w:pStyle w:val="TOC1"/></w:pPr>${
    first
      ? '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> TOC \\o "1-3" \\h \\z \\u </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>'
      : ""
  }<w:hyperlink w:anchor="_Toc${pageNo}" w:history="1">${run(title)}<w:r><w:tab/></w:r>${run(String(pageNo))}</w:hyperlink>${
    last ? '<w:r><w:fldChar w:fldCharType="end"/></w:r>' : ""
  }</w:p>`;

/**
 * The book as a Word file: Title and Subtitle, a TOC field with its cached entries under a "TOC
 * Heading" whose words do not say it is a table of contents (only its style does), then the text.
 */
export function bookDocx(): Uint8Array {
  const entries = ["Preface", ...CHAPTERS.map((c) => c.title)];
  const document = `<?xml version="1.0" encoding="UTF-8"?><w:document ${W} xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><w:body>
${para(BOOK_TITLE, "Title")}
${para("A Field Guide for Small-Boat Sailors", "Subtitle")}
<w:sdt><w:sdtPr><w:docPartObj><w:docPartGallery w:val="Table of Contents"/><w:docPartUnique/></w:docPartObj></w:sdtPr><w:sdtContent>
${para("In This Guide", "TOCHeading")}
${entries.map((t, i) => tocEntry(t, 2 + i * 2, i === 0, i === entries.length - 1)).join("\n")}
</w:sdtContent></w:sdt>
${para("Preface", "Heading1")}
${para(PREFACE)}
${CHAPTERS.map((c) => para(c.title, "Heading1") + para(c.text)).join("\n")}
</w:body></w:document>`;
  return docxWithStyles(document, STYLES);
}
