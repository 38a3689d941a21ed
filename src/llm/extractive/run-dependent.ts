/**
 * Code whose output changes from run to run: it draws random numbers, reads the clock, or asks the
 * machine it runs on (a process id, an object's address, the working directory, the platform). What
 * the source shows it printing once is one run's output, not a fact a learner can predict, so no item
 * asks for it ("random.randint(5, 10)" displayed 9 on the author's machine).
 */

/** Calls and names of the usual languages' random generators, clocks and machine queries. */
const RUN_DEPENDENT = new RegExp(
  [
    // Random numbers: Python's random and numpy.random, R's r* draws and sample(), C's rand(), Bash's $RANDOM.
    String.raw`\brandom\b|\b(?:rand|randint|randrange|randn|srand|random_sample|shuffle|uniform|choice|choices|sample|runif|rnorm|rbinom|rpois|rexp)\s*\(|\$RANDOM\b`,
    // Clocks and dates: time.time(), datetime.now(), date.today(), Sys.time(), clock(), Date.now(), `date`.
    String.raw`\b(?:time|now|today|clock|perf_counter|monotonic|localtime|gmtime|ctime|Sys\.time|Sys\.Date|date)\s*\(|\bDate\.now\b|\$\(date\b|\bdate\s*\+`,
    // The machine and the process: ids, addresses, the working directory, the host, the environment.
    String.raw`\b(?:id|getpid|getppid|getcwd|getwd|gethostname|uname|getlogin|cpu_count|uuid\d?)\s*\(|\bos\.environ\b|\bsys\.(?:platform|version|maxsize|path)\b|\bSys\.getenv\b|\$\$|\$PPID\b|\$HOSTNAME\b|\$SECONDS\b`,
  ].join("|"),
);

/** Whether what this code prints depends on the run: chance, the time or the machine. */
export const variesByRun = (code: string): boolean => RUN_DEPENDENT.test(code);

/** Calls a sentence quotes ("random.randint(5, 10)", "Sys.time()") and shell variables ("$RANDOM"). */
// A call is written with its parenthesis right after the name: "any time (but not …)" is prose.
const QUOTED_CODE = /[\p{L}_][\p{L}\p{N}_.]*\([^()]*\)|\$\w+/gu;

/** Whether a sentence quotes code whose output depends on the run: a figure it gives is one run's. */
export const quotesRunDependentCode = (sentence: string): boolean =>
  (sentence.match(QUOTED_CODE) ?? []).some(variesByRun);
