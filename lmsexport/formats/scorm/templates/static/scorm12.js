/* lmsexport quiz player: the SCORM 1.2 adapter.
 *
 * Maps the player's records onto the SCORM 1.2 CMI data model (SCORM 1.2 Run-Time
 * Environment, section 3.4). scorm2004.js has the same shape for SCORM 2004; player.js
 * only talks to `lmsexport.runtime`. Every value is written as a string.
 */
(function (ns) {
  "use strict";

  const pad = (number, width) => String(number).padStart(width, "0");
  /** cmi.interactions.n.student_response and .pattern are CMIString255 (RTE 3.4.2.7). */
  const FILL_IN_LIMIT = 255;

  /** CMIDecimal with at most two decimals: "75", "66.67" (never an exponent). */
  function decimal(value) {
    const text = value.toFixed(2);
    return text.replace(/\.?0+$/, "").replace(/^-0$/, "0");
  }

  /** CMITimespan: HHHH:MM:SS.SS, hours from 2 to 4 digits. */
  function timespan(milliseconds) {
    const centiseconds = Math.min(Math.round(milliseconds / 10), 9999 * 360000 + 359999);
    const hours = Math.floor(centiseconds / 360000);
    const minutes = Math.floor(centiseconds / 6000) % 60;
    const seconds = Math.floor(centiseconds / 100) % 60;
    return `${pad(hours, 2)}:${pad(minutes, 2)}:${pad(seconds, 2)}.${pad(centiseconds % 100, 2)}`;
  }

  /** CMITime: the time of day, HH:MM:SS. */
  function timeOfDay(date) {
    return `${pad(date.getHours(), 2)}:${pad(date.getMinutes(), 2)}:${pad(date.getSeconds(), 2)}`;
  }

  /** Number as typed for a numeric response: CMIDecimal, up to ten decimals, never an exponent. */
  function exact(value) {
    return value.toFixed(10).replace(/\.?0+$/, "").replace(/^-0$/, "0");
  }

  /** CMIString255 on one line: line breaks become " ¶ ", and a longer text is cut with "…". */
  function characters(text) {
    const line = String(text).replace(/\s*(?:\r\n|\r|\n)\s*/g, " ¶ ");
    if (line.length <= FILL_IN_LIMIT) return line;
    const cut = line.slice(0, FILL_IN_LIMIT - 1);
    return `${/[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut}…`;
  }

  /*
   * Responses in the SCORM 1.2 RTE's formats (section 3.4.2.7, cmi.interactions.n.student_response):
   * choice "a,c"; true-false "t" / "f"; fill-in one string (several blanks joined by ",");
   * numeric a decimal; matching "a.1,b.2"; sequencing "b,a,c". Correct patterns use the same syntax.
   */
  const FORMATS = {
    choice: (ids) => ids.join(","),
    "true-false": (value) => (value ? "t" : "f"),
    "fill-in": (texts) => characters(texts.join(",")),
    "long-fill-in": (text) => characters(text),
    numeric: (value) => exact(value),
    matching: (pairs) => pairs.map(([left, right]) => `${left}.${right}`).join(","),
    sequencing: (ids) => ids.join(","),
  };
  const PATTERNS = { ...FORMATS, numeric: (range) => exact(range.value) };

  ns.runtime = {
    apiName: "API",
    methods: {
      initialize: "LMSInitialize", terminate: "LMSFinish", get: "LMSGetValue",
      set: "LMSSetValue", commit: "LMSCommit", lastError: "LMSGetLastError",
    },
    /** cmi.suspend_data is a CMIString4096. */
    suspendLimit: 4096,

    /** What the LMS knows at launch: saved state, its pass mark (percent), interactions so far. */
    begin(lms, hasPassMark, hasTimeLimit) {
      const mastery = lms.get("cmi.student_data.mastery_score");
      // adlcp:maxtimeallowed reaches the SCO as a CMITimespan, HHHH:MM:SS(.SS).
      const allowed = hasTimeLimit ? /^(\d{2,4}):(\d{2}):(\d{2}(?:\.\d+)?)$/.exec(lms.get("cmi.student_data.max_time_allowed")) : null;
      return {
        timeLimit: allowed ? Number(allowed[1]) * 3600 + Number(allowed[2]) * 60 + Number(allowed[3]) : null,
        // Read whatever the entry: some 1.2 LMSs hand back suspend_data with entry "".
        suspendData: lms.get("cmi.suspend_data"),
        passMark: mastery === "" || isNaN(Number(mastery)) ? null : Number(mastery),
        interactions: Number(lms.get("cmi.interactions._count")) || 0,
      };
    },

    /**
     * One answered question as cmi.interactions.n (journaled: n grows, entries are never rewritten).
     * SCORM 1.2 has no long-fill-in: an essay is a fill-in, cut to its 255 characters.
     */
    record(lms, n, item) {
      const base = `cmi.interactions.${n}.`;
      lms.set(`${base}id`, item.id);
      lms.set(`${base}type`, item.type === "long-fill-in" ? "fill-in" : item.type);
      lms.set(`${base}student_response`, FORMATS[item.type](item.response));
      item.correct.forEach((pattern, index) => {
        lms.set(`${base}correct_responses.${index}.pattern`, PATTERNS[item.type](pattern));
      });
      if (item.result) lms.set(`${base}result`, item.result === "correct" ? "correct" : "wrong");
      lms.set(`${base}weighting`, decimal(item.weighting));
      lms.set(`${base}latency`, timespan(item.latency));
      lms.set(`${base}time`, timeOfDay(item.time));
    },

    /** State while the quiz is under way: resumable, incomplete. */
    progress(lms, state) {
      lms.set("cmi.core.lesson_location", String(state.location));
      lms.set("cmi.core.lesson_status", "incomplete");
      lms.set("cmi.core.exit", "suspend");
      if (state.suspendData !== null) lms.set("cmi.suspend_data", state.suspendData);
    },

    /**
     * The final result. score.raw is a percentage, as adlcp:masteryscore is compared with it
     * (SCORM 1.2 CAM, masteryscore), so min 0 and max 100 whatever the points.
     */
    finish(lms, result) {
      if (result.max > 0) {
        lms.set("cmi.core.score.raw", decimal(result.percent));
        lms.set("cmi.core.score.min", "0");
        lms.set("cmi.core.score.max", "100");
      }
      const status = result.passed === null ? "completed" : result.passed ? "passed" : "failed";
      lms.set("cmi.core.lesson_status", status);
      lms.set("cmi.core.exit", "");
      if (result.suspendData !== null) lms.set("cmi.suspend_data", result.suspendData);
    },

    /** Before LMSFinish: how long this session lasted. */
    end(lms, milliseconds) {
      lms.set("cmi.core.session_time", timespan(milliseconds));
    },
  };
})(window.lmsexport = window.lmsexport || {});
