/* lmsexport preview: the LMS side of a quiz's page.
 *
 * Like an LMS, this page puts a SCORM runtime where the player looks for one (scorm-again's
 * Scorm12API as window.API, Scorm2004API as window.API_1484_11), hands it what an LMS takes
 * from the manifest (the pass mark, the time limit), and opens the package's launch file in
 * the frame. Every call the player makes is recorded, and the panel shows what the runtime
 * then holds: status, score, each interaction, suspend data. Reset ends the session and
 * starts a fresh one. Nothing leaves the browser: the runtime's commits go nowhere.
 */
(function () {
  "use strict";

  const setup = JSON.parse(document.getElementById("preview-data").textContent);
  const v12 = setup.version === "1.2";
  const API_NAME = v12 ? "API" : "API_1484_11";
  const CALLS = v12
    ? ["LMSInitialize", "LMSFinish", "LMSGetValue", "LMSSetValue", "LMSCommit", "LMSGetLastError", "LMSGetErrorString", "LMSGetDiagnostic"]
    : ["Initialize", "Terminate", "GetValue", "SetValue", "Commit", "GetLastError", "GetErrorString", "GetDiagnostic"];
  const STARTS = v12 ? "LMSInitialize" : "Initialize";
  const ENDS = v12 ? "LMSFinish" : "Terminate";
  /** What the panel shows above the interactions: [label, path in the CMI]. */
  const STATUS = v12
    ? [["lesson_status", "core.lesson_status"], ["score.raw", "core.score.raw"], ["score.min", "core.score.min"],
      ["score.max", "core.score.max"], ["lesson_location", "core.lesson_location"], ["entry", "core.entry"],
      ["exit", "core.exit"], ["session_time", "core.session_time"]]
    : [["completion_status", "completion_status"], ["success_status", "success_status"],
      ["score.scaled", "score.scaled"], ["score.raw", "score.raw"], ["score.min", "score.min"],
      ["score.max", "score.max"], ["progress_measure", "progress_measure"], ["location", "location"],
      ["entry", "entry"], ["exit", "exit"], ["session_time", "session_time"]];
  const MAX_CALLS = 500;

  const frame = document.getElementById("sco");
  let api = null;
  let calls = [];
  let session = "not started";
  let pending = false;

  const el = (tag, text, className) => {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (className) node.className = className;
    return node;
  };
  const lookup = (cmi, path) => path.split(".").reduce((node, key) => (node && typeof node === "object" ? node[key] : undefined), cmi);

  /** A runtime whose calls are recorded (listeners see only the calls that succeed). */
  function createApi() {
    const settings = {
      lmsCommitUrl: false,
      autocommit: false,
      logLevel: 4,
      onLogMessage: () => {},
    };
    const created = v12 ? new window.Scorm12API(settings) : new window.Scorm2004API(settings);
    if (Object.keys(setup.preload).length) created.loadFromJSON(setup.preload);
    for (const name of CALLS) {
      const call = created[name];
      created[name] = (...args) => {
        const result = call.apply(created, args);
        if (created === api) record(name, args, result, String(created.lastErrorCode));
        return result;
      };
    }
    return created;
  }

  function record(name, args, result, error) {
    calls.push({ name, args, result: String(result), error });
    if (calls.length > MAX_CALLS) calls = calls.slice(-MAX_CALLS);
    if (name === STARTS && String(result) === "true") session = "running";
    if (name === ENDS && String(result) === "true") session = "terminated";
    if (!pending) {
      pending = true;
      window.setTimeout(render, 30);
    }
  }

  function renderStatus(cmi) {
    const list = document.getElementById("status");
    list.replaceChildren(...STATUS.map(([label, path]) => {
      const row = el("div");
      row.dataset.name = `cmi.${path}`;
      const value = lookup(cmi, path);
      row.append(el("dt", label), el("dd", value === undefined || value === "" ? "—" : String(value)));
      return row;
    }));
  }

  function renderInteractions(cmi) {
    const found = (cmi && cmi.interactions) || {};
    const rows = Object.keys(found).filter((key) => /^\d+$/.test(key)).sort((a, b) => a - b).map((key) => {
      const item = found[key];
      const patterns = Object.keys(item.correct_responses || {}).sort((a, b) => a - b)
        .map((n) => item.correct_responses[n].pattern);
      const cells = [key, item.id, item.type, v12 ? item.student_response : item.learner_response,
        patterns.join(" | "), item.result, item.weighting, item.latency];
      const row = el("tr");
      row.dataset.id = item.id;
      row.append(...cells.map((value) => el("td", value === undefined ? "" : String(value))));
      return row;
    });
    document.querySelector("#interactions tbody").replaceChildren(...rows);
  }

  function renderSuspend(cmi) {
    const data = (cmi && cmi.suspend_data) || "";
    let shown = data;
    try {
      shown = data ? JSON.stringify(JSON.parse(data), null, 1) : "—";
    } catch (error) {
      shown = data;
    }
    document.getElementById("suspend").textContent = shown;
  }

  function renderCalls() {
    document.getElementById("call-count").textContent = String(calls.length);
    document.getElementById("calls").replaceChildren(...calls.map((call) => {
      const failed = call.error !== "0";
      const args = call.args.map((arg) => JSON.stringify(String(arg))).join(", ");
      return el("li", `${call.name}(${args}) → ${call.result}${failed ? ` (error ${call.error})` : ""}`,
        failed ? "failed" : "ok");
    }));
  }

  function render() {
    pending = false;
    const cmi = api ? api.renderCMIToJSONObject().cmi : {};
    document.getElementById("session").textContent = session;
    renderStatus(cmi);
    renderInteractions(cmi);
    renderSuspend(cmi);
    renderCalls();
  }

  function start() {
    calls = [];
    session = "not started";
    api = createApi();
    window[API_NAME] = api;
    render();
    frame.src = setup.launch;
  }

  /** End the player's session (leaving the page terminates it), then start afresh. */
  function reset() {
    frame.addEventListener("load", start, { once: true });
    frame.src = "about:blank";
  }

  document.getElementById("reset").addEventListener("click", reset);
  start();
})();
