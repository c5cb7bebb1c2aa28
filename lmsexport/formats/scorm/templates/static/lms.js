/* lmsexport quiz player: finding the LMS's SCORM runtime and calling it.
 *
 * `lmsexport.connect(runtime, onRefused)` finds the API object the adapter names (`API` for
 * SCORM 1.2, `API_1484_11` for 2004), initializes it, and returns a small wrapper whose calls
 * never throw, or null when there is no LMS. The first call the LMS refuses is reported once,
 * with its error code, through `onRefused`.
 */
(function (ns) {
  "use strict";

  /** The API discovery of the SCORM RTE (after IEEE 1484.11.2): up the parents, then the opener's. */
  function findApi(name) {
    const search = (start) => {
      let frame = start;
      for (let depth = 0; frame && depth < 500; depth += 1) {
        try {
          if (frame[name]) return frame[name];
        } catch (error) {
          // A frame from another origin: its parents may still hold the API.
        }
        if (frame.parent === frame) break;
        frame = frame.parent;
      }
      return null;
    };
    let topOpener = null;
    try {
      topOpener = window.top.opener;
    } catch (error) {
      topOpener = null;
    }
    return search(window) || search(window.opener) || search(topOpener);
  }

  class Lms {
    constructor(api, methods, onRefused) {
      this.api = api;
      this.methods = methods;
      this.onRefused = onRefused;
      this.failed = false;
    }

    /** One API call as a string; an LMS whose API throws is treated as refusing the call. */
    call(method, ...args) {
      try {
        return String(this.api[this.methods[method]](...args));
      } catch (error) {
        return "false";
      }
    }

    get(name) {
      const value = this.call("get", name);
      return value === "undefined" || value === "null" ? "" : value;
    }

    set(name, value) {
      if (this.call("set", name, String(value)) !== "true") this.refused();
    }

    commit() {
      if (this.call("commit", "") !== "true") this.refused();
    }

    refused() {
      if (this.failed) return;
      this.failed = true;
      this.onRefused(this.call("lastError"));
    }
  }

  ns.connect = function (runtime, onRefused) {
    const api = findApi(runtime.apiName);
    if (!api) return null;
    const lms = new Lms(api, runtime.methods, onRefused);
    return lms.call("initialize", "") === "true" ? lms : null;
  };
})(window.lmsexport = window.lmsexport || {});
