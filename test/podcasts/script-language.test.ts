/** The built-in script's language: guest lines that stand alone, host questions that agree with their term. */
import { describe, expect, test } from "bun:test";
import { Host, indefiniteArticle, termOf } from "../../src/llm/extractive/podcast-host.ts";
import { spokenSentence } from "../../src/llm/extractive/podcast-lines.ts";

describe("a chapter sentence spoken by the guest", () => {
  test("keeps what stands alone, dropping leading connectives and citation markers", () => {
    expect(
      spokenSentence("However, a typed trace is a trace annotated with a type for every variable on the trace."),
    ).toBe("A typed trace is a trace annotated with a type for every variable on the trace.");
    expect(
      spokenSentence(
        "Trace trees were originally proposed by Gal et al. (11) in the context of Java, a statically typed language.",
      ),
    ).toBe(
      "Trace trees were originally proposed by Gal and colleagues in the context of Java, a statically typed language.",
    );
    expect(spokenSentence("Dense retrieval outperforms BM25 on most open-domain benchmarks [12, 14].")).toBe(
      "Dense retrieval outperforms BM25 on most open-domain benchmarks.",
    );
  });

  test("gives a paper's we to the authors (then they), and the reader's we can to you", () => {
    expect(
      spokenSentence("We validate our tracing techniques in an implementation based on the SpiderMonkey interpreter."),
    ).toBe("The authors validate their tracing techniques in an implementation based on the SpiderMonkey interpreter.");
    expect(
      spokenSentence("In our implementation, the only change to the interpreter is a call to the trace monitor."),
    ).toBe("In the authors' implementation, the only change to the interpreter is a call to the trace monitor.");
    expect(
      spokenSentence("We can plot the empirical cumulative distribution function by using the function ecdf."),
    ).toBe("You can plot the empirical cumulative distribution function by using the function ecdf.");
  });

  test("drops sentences that point elsewhere, narrate the document, refer back, or cannot be reassigned", () => {
    for (const sentence of [
      "In Section 4 we describe the trace recorder and its filters in detail.",
      "Figure 12 breaks down the total execution time into four activities.",
      "When recording reaches line 4, TraceMonkey observes that it has reached an inner loop header.",
      "This paper is intended for database engineers and security officers.",
      "We will describe them assuming a bytecode interpreter to keep the exposition simple.",
      "We explain how to speculatively generate efficient type-specialized code for traces.",
      "These techniques allow a VM to translate a program to nested, type-specialized trace trees.",
      "It is case sensitive as are most UNIX based packages, so names differ by case.",
      "When both of these expectations hold, a compiler can cover the program with few traces.",
      "We've been working on support for emitting standalone Wasm files from Emscripten.",
      "I think the interpreter is the most important part of the whole system here.",
      "The results are shown below for each of the benchmark programs we ran.",
      "The function seq() is a more general facility for generating sequences.",
    ]) {
      expect(spokenSentence(sentence)).toBeNull();
    }
  });
});

describe("the host's questions", () => {
  const chapter =
    "A trace is a path through a loop. Trace trees grow from a root trace. The VM compiles traces to native code. " +
    "Native code runs fast, and the trace monitor decides when to run native code. TraceMonkey records a trace when a loop gets hot. " +
    "An inner loop header starts an inner tree. The LIR records guards, and the LIR is compiled.";

  test("read each term as the chapter uses it: plural, count noun with its article, mass noun, name", () => {
    expect(termOf("trace trees", chapter)).toMatchObject({ plural: true, countable: false, np: "trace trees" });
    expect(termOf("trace", chapter)).toMatchObject({ plural: false, countable: true, np: "a trace" });
    expect(termOf("inner loop header", chapter)).toMatchObject({ countable: true, np: "an inner loop header" });
    expect(termOf("native code", chapter)).toMatchObject({ plural: false, countable: false, np: "native code" });
    expect(termOf("TraceMonkey", chapter)).toMatchObject({ plural: false, countable: false, np: "TraceMonkey" });
    expect(termOf("LIR", chapter)).toMatchObject({ np: "the LIR" });
    // A term that opened its definition sentence loses the sentence's capital.
    expect(termOf("Trace trees", chapter).text).toBe("trace trees");
  });

  test("agree with the term whatever the template, and vary", () => {
    const host = new Host(7);
    const plural = termOf("trace trees", chapter);
    const singular = termOf("inner loop header", chapter);
    const asked = new Set<string>();
    for (let i = 0; i < 8; i++) {
      for (const defines of [true, false]) {
        const p = host.question(plural, defines);
        const s = host.question(singular, defines);
        expect(p).toMatch(/\b(are|do) trace trees\b|about trace trees/);
        expect(p).not.toMatch(/\b(is|does)( a)? trace trees\b/);
        expect(s).toMatch(/\b(is|does) an inner loop header\b|the inner loop header/);
        asked.add(p).add(s);
      }
    }
    expect(asked.size).toBeGreaterThanOrEqual(8);
  });

  test("use a or an by sound, acronyms by their letters", () => {
    expect(["trace", "inner loop", "unit test", "hour", "LIR", "VM", "SQL query"].map(indefiniteArticle)).toEqual([
      "a",
      "an",
      "a",
      "an",
      "an",
      "a",
      "an",
    ]);
  });

  test("react to what the guest said, picking up a term it mentions", () => {
    const host = new Host(0);
    const terms = [termOf("trace monitor", chapter), termOf("native code", chapter)];
    const reaction = host.reaction("The trace monitor decides when to run native code.", terms);
    expect(reaction).toMatch(/the trace monitor|native code/);
    expect(host.reaction("It speeds up programs 2x to 20x.", terms)).toMatch(/numbers|difference/);
  });
});
