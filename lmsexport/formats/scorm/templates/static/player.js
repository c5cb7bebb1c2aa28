/* lmsexport quiz player: the flow of an attempt, its state, its score, and what the LMS hears.
 *
 * The quiz and the toolbox come from ui.js, each kind of question from kinds-*.js, and the
 * SCORM version's adapter (scorm12.js or scorm2004.js) is `lmsexport.runtime`. Opened outside
 * an LMS, the quiz still runs and scores, and says that nothing is saved. One page at a time
 * (a question, or a text block): an answer is final once checked (feedback "immediate") or
 * once the learner moves on (feedback "end"). Each answer becomes one interaction followed by
 * a commit, and suspend_data carries the answers and the orders shown, so a learner can resume.
 * A quiz with pools draws, for each attempt, `draw` questions of each pool where the pool stands,
 * from a seed kept in suspend_data: a resumed attempt shows the same questions, and the score,
 * its maximum and the interactions are those of the questions drawn.
 */
(function (ns) {
  "use strict";

  const { data, el, rich, say } = ns;
  const runtime = ns.runtime;
  const pools = data.pools || [];
  const byId = new Map(data.questions.map((item) => [item.id, item]));
  let items = data.questions;
  let questions = [];
  let numbers = new Map();
  const points = (value) => ns.formatNumber(value, 2, true);
  const stage = document.getElementById("stage");
  const STATE_VERSION = 1;
  const kindOf = (question) => ns.kinds[question.kind];

  /* ---- State, suspend_data and scoring ---- */

  /** A new order that is not the one written (ordering questions must not start solved). */
  function scrambled(ids) {
    const out = ns.shuffled(ids);
    return ids.length > 1 && out.every((id, index) => id === ids[index]) ? [...ids.slice(1), ids[0]] : out;
  }

  /** The attempt's pages: each fixed item, and where a pool stands `draw` of its questions, drawn
   *  by `seed` (in the pool's order unless it shuffles). */
  function arrange(seed) {
    const next = ns.seeded(seed);
    const pooled = new Map(pools.flatMap((pool) => pool.questions.map((id) => [id, pool])));
    items = data.questions.flatMap((item) => {
      const pool = pooled.get(item.id);
      if (!pool) return [item];
      if (pool.questions[0] !== item.id) return [];
      const picked = ns.shuffled(pool.questions, next).slice(0, pool.draw);
      const shown = pool.shuffle ? picked : pool.questions.filter((id) => picked.includes(id));
      return shown.map((id) => byId.get(id));
    });
    questions = items.filter((item) => item.kind !== "description");
    numbers = new Map(questions.map((question, index) => [question.id, index + 1]));
  }

  function freshState(seed) {
    arrange(seed);
    const orders = {};
    for (const question of questions) {
      const kind = kindOf(question);
      const lists = Object.entries(kind.lists(question));
      if (kind.scramble) orders[question.id] = Object.fromEntries(lists.map(([key, ids]) => [key, scrambled(ids)]));
      else if (data.shuffle && lists.length) {
        orders[question.id] = Object.fromEntries(lists.map(([key, ids]) => [key, ns.shuffled(ids)]));
      }
    }
    return { index: 0, answers: {}, orders, spent: 0, seed };
  }

  /** Compact JSON: {"v":1,"i":3,"a":{"q1":"a","q4":"NCCL"},"o":{"q1":"c,a,b","q10/g2":"b,a,c"}},
   *  with "s": the seed of the draw when the quiz has pools. */
  function serialize(withOrders) {
    const answers = Object.fromEntries(Object.entries(state.answers)
      .map(([id, answer]) => [id, kindOf(byId.get(id)).encode(answer)]));
    const saved = { v: STATE_VERSION, i: state.index, a: answers, t: Math.round(timeSpent() / 1000) };
    if (pools.length) saved.s = state.seed;
    if (withOrders) {
      const orders = {};
      for (const [id, lists] of Object.entries(state.orders)) {
        for (const [key, ids] of Object.entries(lists)) orders[key ? `${id}/${key}` : id] = ids.join(",");
      }
      if (Object.keys(orders).length) saved.o = orders;
    }
    return JSON.stringify(saved);
  }

  /** suspend_data within the version's limit: without the orders if need be, else nothing. */
  function suspendData() {
    let out = serialize(true);
    if (out.length > runtime.suspendLimit) out = serialize(false);
    return out.length > runtime.suspendLimit ? null : out;
  }

  /** A saved order is kept only if it holds exactly the ids of the list it reorders. */
  function restoreOrders(restored, saved) {
    for (const [name, value] of Object.entries(saved && typeof saved === "object" ? saved : {})) {
      const [id, key = ""] = name.split("/");
      const question = items.includes(byId.get(id)) ? byId.get(id) : undefined;
      const list = question && question.kind !== "description" ? kindOf(question).lists(question)[key] : null;
      const order = typeof value === "string" ? value.split(",") : [];
      if (list && order.length === list.length && list.every((item) => order.includes(item))) {
        restored.orders[id] = { ...(restored.orders[id] || {}), [key]: order };
      }
    }
  }

  function restore(raw) {
    let saved;
    try {
      saved = JSON.parse(raw);
    } catch (error) {
      return null;
    }
    if (!saved || saved.v !== STATE_VERSION || typeof saved.a !== "object" || saved.a === null) return null;
    const seed = pools.length ? saved.s : 0;
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) return null;  // no draw to resume
    const restored = freshState(seed);
    const drawn = new Set(items.map((item) => item.id));
    for (const [id, value] of Object.entries(saved.a)) {
      const question = drawn.has(id) ? byId.get(id) : undefined;
      const answer = question && question.kind !== "description" ? kindOf(question).decode(question, value) : null;
      if (answer !== null) restored.answers[id] = answer;
    }
    restoreOrders(restored, saved.o);
    restored.index = Number.isInteger(saved.i) ? Math.max(0, Math.min(saved.i, items.length)) : 0;
    restored.spent = Number.isFinite(saved.t) && saved.t > 0 ? saved.t * 1000 : 0;
    return restored;
  }

  /** Share of the points earned (0..1), or null for an answer a person marks (an essay). A kind's
   *  credit() is the partial policy; all or nothing keeps full marks only (docs/scoring.md). */
  function credit(question, answer) {
    const share = kindOf(question).credit(question, answer);
    return question.scoring === "all_or_nothing" && share !== null && share < 1 ? 0 : share;
  }

  function verdict(question, answer) {
    const share = credit(question, answer);
    if (share === null) return "to_be_graded";
    return share === 1 ? "correct" : share > 0 ? "partly_correct" : "incorrect";
  }

  /** Points over the questions the player marks; essays wait for a person, and so does pass or fail. */
  function totals() {
    let earned = 0;
    let max = 0;
    for (const question of questions) {
      if (question.scored === false) continue;
      max += question.points;
      const answer = state.answers[question.id];
      if (answer !== undefined) earned += credit(question, answer) * question.points;
    }
    const percent = max > 0 ? (earned / max) * 100 : 100;
    const passed = data.pending || passMark === null ? null : earned * 100 >= passMark * max - 1e-9;
    return { earned, max, percent, passed };
  }

  /* ---- Building the page ---- */

  function answerList(question, answer) {
    const kind = kindOf(question);
    const expected = kind.expected(question);
    const given = answer === undefined ? el("span", { class: "none", text: say("no_answer") })
      : kind.given(question, answer);
    return el("dl", { class: "answers" },
      el("dt", { text: say("your_answer") }), el("dd", {}, given),
      expected ? el("dt", { text: say("correct_answer") }) : null, expected ? el("dd", {}, expected) : null);
  }

  /** What follows an answer, in both feedback modes: the answers, remarks, feedback, explanation. */
  function commentary(question, answer, result, withAnswers) {
    const language = ns.language(question);
    const remarks = answer === undefined ? [] : kindOf(question).remarks(question, answer)
      .map((remark) => rich("div", remark, { class: "remark", ...language }));
    const overall = result === "correct" ? question.correctFeedback
      : result === "to_be_graded" ? null : question.incorrectFeedback;
    return [
      withAnswers ? answerList(question, answer) : null,
      ...remarks,
      overall ? rich("div", overall, { class: "remark overall", ...language }) : null,
      question.explanation ? el("div", { class: "explanation" }, el("h3", { text: say("explanation") }),
        rich("div", question.explanation, language)) : null,
    ];
  }

  function feedback(question, answer) {
    const result = verdict(question, answer);
    return el("div", { id: "feedback", class: `feedback ${result}` },
      el("p", { class: "verdict" }, el("strong", { text: say(result) })),
      ...commentary(question, answer, result, result !== "correct"));
  }

  function showNotice(message, alert = false) {
    const notice = document.getElementById("notice");
    notice.textContent = message;
    notice.hidden = false;
    if (alert) notice.setAttribute("role", "alert");
  }

  function announce(message) {
    const announcer = document.getElementById("announcer");
    announcer.textContent = "";
    // A fresh text node after clearing makes screen readers read a repeated message again.
    requestAnimationFrame(() => { announcer.textContent = message; });
  }

  function orderOf(question, key) {
    const saved = state.orders[question.id];
    return (saved && saved[key]) || kindOf(question).lists(question)[key];
  }

  function buttonLabel(answered, question) {
    const last = state.index === items.length - 1;
    if (data.feedback === "immediate" && !answered) return say(question.scored === false ? "submit" : "check");
    return say(last ? "finish" : "next");
  }

  /** The page of one item; `focus` is "heading" after moving on, "button" after checking. */
  function showItem(focus) {
    const question = items[state.index];
    const text = question.kind === "description";
    const answer = text ? undefined : state.answers[question.id];
    const locked = text || answer !== undefined;
    const heading = el("h2", { id: "question-heading", tabindex: "-1", text: text ? say("information")
      : say("question_of", { number: numbers.get(question.id), total: questions.length }) });
    const error = el("p", { id: "error", class: "error", hidden: true });
    const button = el("button", { type: "submit", class: "primary", text: buttonLabel(locked, question) });
    const form = el("form", { class: text ? "question text-block" : "question", novalidate: true },
      heading,
      el("progress", { max: items.length, value: state.index, "aria-hidden": "true" }),
      text ? rich("div", question.prompt, { id: "prompt", class: "prompt", ...ns.language(question) })
        : questionBody(question, answer, locked),
      error,
      text || answer === undefined ? null : feedback(question, answer),
      el("div", { class: "actions" }, button));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (text || state.answers[question.id] !== undefined) advance();
      else submit(question, form, error);
    });
    stage.replaceChildren(form);
    shownAt = Date.now();
    if (focus === "heading") heading.focus();
    if (focus === "button") button.focus();
  }

  function questionBody(question, answer, locked) {
    const kind = kindOf(question);
    const view = { answer, locked, order: (key) => orderOf(question, key), announce };
    return el("fieldset", { "aria-labelledby": "prompt", "aria-describedby": "hint error" },
      kind.ownPrompt ? null : rich("div", question.prompt, { id: "prompt", class: "prompt", ...ns.language(question) }),
      el("p", { id: "hint", class: "hint" }, kind.hint(question), " ",
        el("span", { class: "points", text: `(${question.pointsText})` })),
      kind.render(question, view));
  }

  function reviewItem(question) {
    const answer = state.answers[question.id];
    const result = answer === undefined ? "incorrect" : verdict(question, answer);
    const language = ns.language(question);
    const prompt = kindOf(question).ownPrompt ? null : rich("div", question.prompt, { class: "prompt", ...language });
    return el("li", { class: `review-item ${result}` },
      el("h4", {}, say("question", { number: numbers.get(question.id) }), " ",
        el("span", { class: "verdict", text: say(result) })),
      prompt,
      ...commentary(question, answer, result, true));
  }

  function showResults(focus) {
    const result = totals();
    const outcome = data.pending ? say("needs_grading") : result.passed === null ? say("completed")
      : say(result.passed ? "passed" : "failed", { pass: ns.formatPercent(passMark / 100) });
    const score = result.max > 0 ? say("score", { score: points(result.earned),
      total: points(result.max), percent: ns.formatPercent(result.percent / 100) }) : "";
    const heading = el("h2", { id: "results-heading", tabindex: "-1", text: say("results") });
    const status = result.passed === null ? "completed" : result.passed ? "passed" : "failed";
    stage.replaceChildren(el("section", { class: "results", "aria-labelledby": "results-heading" },
      heading,
      el("p", { class: `summary ${status}`, text: outcome }),
      score ? el("p", { class: "score", text: score }) : null,
      el("h3", { text: say("review") }),
      el("ol", { class: "review" }, ...questions.map(reviewItem))));
    if (focus) heading.focus();
    announce(score ? `${outcome} ${score}` : outcome);
  }

  /* ---- The flow ---- */

  function save() {
    if (!lms) return;
    runtime.progress(lms, { location: state.index + 1, suspendData: suspendData(),
      answered: Object.keys(state.answers).length, total: questions.length });
    lms.commit();
  }

  function record(question, answer) {
    if (!lms) return;
    const share = credit(question, answer);
    runtime.record(lms, interactions, {
      ...kindOf(question).interaction(question, answer),
      id: question.interaction, result: share === null ? null : share === 1 ? "correct" : "incorrect",
      weighting: question.points, latency: Date.now() - shownAt, time: new Date(),
      description: question.description, lang: question.lang || data.lang,
    });
    interactions += 1;
  }

  function submit(question, form, error) {
    const result = kindOf(question).read(question, form);
    if (result.error) {
      error.textContent = say(result.error);
      error.hidden = false;
      error.setAttribute("role", "alert");
      return;
    }
    state.answers[question.id] = result.answer;
    record(question, result.answer);
    if (data.feedback !== "immediate") {
      advance();
      return;
    }
    save();
    showItem("button");
    announce(document.getElementById("feedback").innerText);
  }

  function advance() {
    state.index += 1;
    if (state.index >= items.length) {
      finish();
      return;
    }
    save();
    showItem("heading");
  }

  /** Time spent on this attempt: in earlier sessions (saved) and in this one. */
  function timeSpent() {
    return state.spent + (Date.now() - startedAt);
  }

  /**
   * A countdown when the quiz has a time limit (the LMS's wins, as for the pass mark);
   * at zero the attempt ends with the answers given so far (timelimitaction exit,message).
   */
  function startTimer(seconds) {
    const timer = document.getElementById("timer");
    const left = () => Math.max(0, seconds * 1000 - timeSpent());
    const clock = (ms) => {
      const total = Math.ceil(ms / 1000);
      const hours = Math.floor(total / 3600);
      const rest = `${String(Math.floor(total / 60) % 60).padStart(2, "0")}:${String(total % 60).padStart(2, "0")}`;
      return hours ? `${hours}:${rest}` : rest;
    };
    let warned = false;
    const tick = () => {
      timer.textContent = say("time_left", { time: clock(left()) });
      if (!warned && left() <= 60000 && left() > 0) {
        warned = true;
        announce(timer.textContent);
      }
      if (left() > 0 || state.index >= items.length) return;
      clearInterval(interval);
      state.index = items.length;
      showNotice(say("time_up"), true);
      finish();
    };
    timer.hidden = false;
    const interval = setInterval(tick, 1000);
    tick();
  }

  function finish() {
    if (lms) {
      runtime.finish(lms, { ...totals(), suspendData: suspendData() });
      lms.commit();
      end();
    }
    showResults(true);
  }

  /** Terminate exactly once: when the quiz is done, or when the page goes away. */
  function end() {
    if (!lms || ended) return;
    ended = true;
    runtime.end(lms, Date.now() - startedAt);
    lms.call("terminate", "");
  }

  const startedAt = Date.now();
  let shownAt = startedAt;
  let ended = false;
  let interactions = 0;
  let passMark = data.passMark ?? null;
  let state = null;
  const lms = ns.connect(runtime, (code) => showNotice(say("save_failed", { code }), true));

  let timeLimit = data.timeLimit ?? null;
  if (lms) {
    const launch = runtime.begin(lms, passMark !== null, timeLimit !== null);
    if (launch.passMark !== null) passMark = launch.passMark;
    if (launch.timeLimit) timeLimit = launch.timeLimit;
    interactions = launch.interactions;
    state = launch.suspendData ? restore(launch.suspendData) : null;
    if (state && state.index < items.length) showNotice(say("resumed"));
  } else {
    showNotice(say("not_saved"));
  }
  const resumed = state !== null;
  state = state || freshState(pools.length ? ns.newSeed() : 0);
  if (data.description) document.getElementById("description").append(rich("div", data.description));
  window.addEventListener("pagehide", end);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden" && lms && !ended) lms.commit();
  });
  if (state.index < items.length) {
    save();
    showItem(null);
    if (timeLimit) startTimer(timeLimit);
  } else if (resumed) {
    showResults(false);
  } else {
    finish();
  }
})(window.lmsexport = window.lmsexport || {});
