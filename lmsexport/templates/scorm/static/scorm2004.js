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

  ns.runtime = {
    apiName: "API_1484_11",
    methods: {
      initialize: "Initialize", terminate: "Terminate", get: "GetValue",
      set: "SetValue", commit: "Commit", lastError: "GetLastError",
    },
    /** cmi.suspend_data: characterstring, SPM 64000. */
    suspendLimit: 64000,

    /** What the LMS knows at launch: saved state, its pass mark (percent), interactions so far. */
    begin(lms, hasPassMark) {
      // Reading an element that was never set is error 403 (Data Model Element Value Not
      // Initialized): suspend_data exists only when resuming, and scaled_passing_score only
      // when the manifest has a pass mark (imsss:minNormalizedMeasure).
      const resuming = lms.get("cmi.entry") === "resume";
      const passing = hasPassMark ? lms.get("cmi.scaled_passing_score") : "";
      return {
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
      lms.set(`${base}type`, "choice");
      lms.set(`${base}timestamp`, timestamp(item.time));
      lms.set(`${base}weighting`, decimal(item.weighting));
      // A set of short_identifier_types is joined by the reserved token "[,]" (RTE 4.2.9.2).
      lms.set(`${base}learner_response`, item.response.join("[,]"));
      lms.set(`${base}correct_responses.0.pattern`, item.correct.join("[,]"));
      lms.set(`${base}result`, item.correctly ? "correct" : "incorrect");
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
