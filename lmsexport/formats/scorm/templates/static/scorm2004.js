/* lmsexport quiz player: the SCORM 2004 (4th edition) adapter.
 *
 * Maps the player's records onto the SCORM 2004 CMI data model (SCORM 2004 4th Edition
 * Run-Time Environment, section 4.2). scorm12.js has the same shape for SCORM 1.2;
 * player.js only talks to `lmsexport.runtime`. Every value is written as a string.
 */
(function (ns) {
  "use strict";

  /** real(10,7): at most seven decimals, never an exponent. */
  function decimal(value) {
    const text = value.toFixed(7);
    return text.replace(/\.?0+$/, "").replace(/^-0$/, "0");
  }

  /** timeinterval (second,10,2): an ISO 8601 duration such as PT1M5.25S. */
  function duration(milliseconds) {
    const centiseconds = Math.round(milliseconds / 10);
    const hours = Math.floor(centiseconds / 360000);
    const minutes = Math.floor(centiseconds / 6000) % 60;
    const seconds = decimal((centiseconds % 6000) / 100);
    return `PT${hours ? `${hours}H` : ""}${minutes ? `${minutes}M` : ""}${seconds}S`;
  }

  /**
   * time (second,10,0) in UTC: YYYY-MM-DDThh:mm:ss.ssZ. The format is
   * YYYY[-MM[-DD[Thh[:mm[:ss[.s[TZD]]]]]]], so a time zone needs the fraction before it.
   */
  function timestamp(date) {
    return `${date.toISOString().slice(0, 22)}Z`;
  }

  /** A string on one line within `limit` characters: line breaks become " ¶ ", a longer text is cut with "…". */
  function characters(text, limit) {
    const line = String(text).replace(/\s*(?:\r\n|\r|\n)\s*/g, " ¶ ");
    if (line.length <= limit) return line;
    const cut = line.slice(0, limit - 1);
    return `${/[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut}…`;
  }

  /** A bag of fill-in strings: at most 10, each a localized string of at most 250 characters (RTE 4.2.9.2). */
  const strings = (texts) => texts.slice(0, 10).map((text) => characters(text, 250)).join("[,]");

  /*
   * learner_response in the RTE's formats (SCORM 2004 4th Edition RTE 4.2.9.2), sets joined by
   * the reserved delimiters [,] and [.]: choice "a[,]c"; true-false "true"; fill-in "NCCL" or
   * "reduce-scatter[,]all-gather"; long-fill-in the text (4000 characters); numeric a decimal;
   * matching "a[.]1[,]b[.]2"; sequencing "b[,]a[,]c". Line breaks do not fit a localized
   * string on one line in every runtime (scorm-again refuses them), so they become " ¶ ".
   */
  const FORMATS = {
    choice: (ids) => ids.join("[,]"),
    "true-false": (value) => String(value),
    "fill-in": strings,
    "long-fill-in": (text) => characters(text, 4000),
    numeric: (value) => decimal(value),
    matching: (pairs) => pairs.map(([left, right]) => `${left}[.]${right}`).join("[,]"),
    sequencing: (ids) => ids.join("[,]"),
  };

  /**
   * correct_responses.n.pattern (RTE 4.2.9.1): as the responses, but a numeric pattern is the
   * range "min[:]max", and a fill-in pattern says whether case matters, and, for several
   * blanks, that their order does: "{case_matters=false}{order_matters=true}a[,]b".
   */
  const PATTERNS = {
    ...FORMATS,
    "fill-in": (texts, item) => `{case_matters=${item.caseMatters}}${texts.length > 1 ? "{order_matters=true}" : ""}`
      + strings(texts),
    numeric: (range) => `${decimal(range.min)}[:]${decimal(range.max)}`,
  };

  ns.runtime = {
    apiName: "API_1484_11",
    methods: {
      initialize: "Initialize", terminate: "Terminate", get: "GetValue",
      set: "SetValue", commit: "Commit", lastError: "GetLastError",
    },
    /** cmi.suspend_data: characterstring, SPM 64000. */
    suspendLimit: 64000,

    /** What the LMS knows at launch: saved state, its pass mark (percent), interactions so far. */
    begin(lms, hasPassMark, hasTimeLimit) {
      // Reading an element that was never set is error 403 (Data Model Element Value Not
      // Initialized): suspend_data exists only when resuming, and scaled_passing_score only
      // when the manifest has a pass mark (imsss:minNormalizedMeasure).
      const resuming = lms.get("cmi.entry") === "resume";
      const passing = hasPassMark ? lms.get("cmi.scaled_passing_score") : "";
      // imsss:attemptAbsoluteDurationLimit reaches the SCO as cmi.max_time_allowed (ISO 8601),
      // set only when the manifest has one (reading it otherwise is error 403).
      const allowed = hasTimeLimit ? /^P(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)$/.exec(lms.get("cmi.max_time_allowed")) : null;
      return {
        timeLimit: allowed ? Number(allowed[1] || 0) * 3600 + Number(allowed[2] || 0) * 60 + Number(allowed[3] || 0) : null,
        suspendData: resuming ? lms.get("cmi.suspend_data") : "",
        passMark: passing === "" || isNaN(Number(passing)) ? null : Number(passing) * 100,
        interactions: Number(lms.get("cmi.interactions._count")) || 0,
      };
    },

    /** One answered question as cmi.interactions.n (RTE 4.2.9), in the order its dependencies need. */
    record(lms, n, item) {
      const base = `cmi.interactions.${n}.`;
      lms.set(`${base}id`, item.id);
      // type must be set before learner_response and correct_responses (error 408 otherwise).
      lms.set(`${base}type`, item.type);
      lms.set(`${base}timestamp`, timestamp(item.time));
      lms.set(`${base}weighting`, decimal(item.weighting));
      lms.set(`${base}learner_response`, FORMATS[item.type](item.response));
      // At most 5 patterns: the smallest permitted maximum for fill-in (RTE 4.2.9.1); other kinds have one.
      item.correct.slice(0, 5).forEach((pattern, index) => {
        lms.set(`${base}correct_responses.${index}.pattern`, PATTERNS[item.type](pattern, item));
      });
      if (item.result) lms.set(`${base}result`, item.result);
      lms.set(`${base}latency`, duration(item.latency));
      lms.set(`${base}description`, `{lang=${item.lang}}${item.description}`);
    },

    /** State while the quiz is under way: resumable, incomplete, with progress. */
    progress(lms, state) {
      lms.set("cmi.location", String(state.location));
      lms.set("cmi.completion_status", "incomplete");
      lms.set("cmi.progress_measure", decimal(state.answered / state.total));
      lms.set("cmi.exit", "suspend");
      if (state.suspendData !== null) lms.set("cmi.suspend_data", state.suspendData);
    },

    /** The final result: scaled is what the LMS compares with minNormalizedMeasure. */
    finish(lms, result) {
      if (result.max > 0) {
        lms.set("cmi.score.scaled", decimal(result.earned / result.max));
        lms.set("cmi.score.raw", decimal(result.earned));
        lms.set("cmi.score.min", "0");
        lms.set("cmi.score.max", decimal(result.max));
      }
      lms.set("cmi.progress_measure", "1");
      lms.set("cmi.completion_status", "completed");
      if (result.passed !== null) lms.set("cmi.success_status", result.passed ? "passed" : "failed");
      lms.set("cmi.exit", "normal");
      if (result.suspendData !== null) lms.set("cmi.suspend_data", result.suspendData);
    },

    /** Before Terminate: how long this session lasted. */
    end(lms, milliseconds) {
      lms.set("cmi.session_time", duration(milliseconds));
    },
  };
})(window.lmsexport = window.lmsexport || {});
